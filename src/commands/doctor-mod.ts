/**
 * `ctx doctor`'s check of ctx's Claude Code plugin: which path is live for the installed client
 * (the mod, or the settings hooks plus the status line) and why, managed policy included.
 */
import { spawnSync } from "node:child_process";
import { delimiter, join } from "node:path";
import type { Deps } from "../core/deps.ts";
import { isObject } from "../core/json.ts";
import { userLayout } from "../core/layout.ts";
import { pluginDirs } from "../core/plugin/claude-plugin.ts";
import { livePath, parseClientVersion } from "../core/plugin/live-path.ts";
import type { Check, FoundSettings } from "../core/settings/diagnose.ts";
import { readJsonFile } from "../io/fs/read.ts";
import { readPluginFile } from "../io/plugin/files.ts";
import { settingsPath } from "../io/settings-file.ts";

/** Where Claude Code reads managed settings on this platform. */
export function managedSettingsPath(platform = process.platform): string {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.json";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode\\managed-settings.json";
  return "/etc/claude-code/managed-settings.json";
}

/**
 * The check: the live path and why. Either path is ok (the hooks path is the first-class fallback);
 * a plugin that is not installed warns, and policy that turns both off fails.
 */
export function modCheck(deps: Deps, settings: FoundSettings[], claude: string | undefined): Check {
  const user = settings.find((s) => s.path === settingsPath(deps.env, "claude"))?.value;
  const userValue = user && !("error" in user) ? user : {};
  const dir = userLayout(deps.env).claudePlugin;
  const installed =
    dir !== "" &&
    pluginDirs(userValue, delimiter).includes(dir) &&
    readPluginFile(dir, join("hooks", "register.ts"))?.includes("export const register") === true;
  const managed = readJsonFile<unknown>(managedSettingsPath());
  const live = livePath({
    clientVersion: claude ? clientVersion(claude, deps) : undefined,
    pluginInstalled: installed,
    managed: managed.status === "ok" && isObject(managed.value) ? managed.value : undefined,
    userDisablesHooks: userValue.disableAllHooks === true,
  });
  const name = "Claude Code path";
  if (live.path === "mod") return { level: "ok", name, detail: `mod (${live.why})` };
  if (live.path === "none") return { level: "fail", name, detail: live.why, fix: "ask whoever manages this machine" };
  const detail = `settings hooks + status line: ${live.why}`;
  if (live.why === "ctx's plugin is not installed") return { level: "warn", name, detail, fix: "ctx install" };
  return { level: "ok", name, detail };
}

// --- internal ---

function clientVersion(claude: string, deps: Deps): string | undefined {
  try {
    const r = spawnSync(claude, ["--version"], { env: deps.env, encoding: "utf8", timeout: 15_000 });
    return r.status === 0 ? parseClientVersion(r.stdout) : undefined;
  } catch {
    return undefined;
  }
}
