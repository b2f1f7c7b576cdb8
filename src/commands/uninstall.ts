/**
 * `ctx uninstall [--project] [--<client>] [--dry-run]`: removes exactly ctx's
 * hooks and statusLine from the agent's settings.json, after a backup. A settings file ctx
 * created and that is left empty is removed (and its directory, when that is left empty).
 */
import type { Deps } from "../core/deps.ts";
import { removeFrom } from "../core/settings/merge.ts";
import { editSettings, parseTarget, type SettingsTarget } from "./install.ts";
import { forgetInstall, originalBytes } from "../io/install-record.ts";
import { withLock } from "../io/fs/lock.ts";
import {
  backupSettings,
  projectBackupDir,
  readSettingsText,
  settingsLockPath,
  writeSettingsText,
} from "../io/settings-file.ts";
import { terminalSafe } from "../core/terminal.ts";
import { forgetStatusline, rememberedStatusline } from "../io/statusline-record.ts";
import { readHooksFile, untrustCtxHooks } from "../io/codex-trust.ts";
import { agent } from "../core/agents/index.ts";
import { pluginSetup } from "../io/plugin-file.ts";
import { uninstallPlugin } from "./install-plugin.ts";

/** Entry point. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { target } = parseTarget(argv, deps, false);
  const agentPlugin = agent(target.agent).plugin; // a client that takes a plugin file, not hook entries
  if (agentPlugin) return pluginSetup(deps, agentPlugin, { ...target, install: false, command: "" });
  const previous = rememberedStatusline(deps.env, target.path);
  // Codex's trust of ctx's hooks goes first, while the file still says which hooks were ctx's.
  if (target.agent === "codex" && !target.dryRun)
    for (const key of untrustCtxHooks(deps.env, target.path, readHooksFile(target.path), (l) => deps.stdout(`${l}\n`)))
      deps.stdout(`untrusted ${key}\n`);
  const plugin = uninstallPlugin(target, deps);
  if (!target.dryRun && restoreExactly(target, deps)) {
    plugin?.files(); // the user's bytes are back, and the plugin's files go as well
    forgetStatusline(deps.env, target.path);
    return 0;
  }
  let restored = false;
  const code = editSettings(
    target,
    deps,
    (value) => {
      const out = removeFrom(value, previous);
      restored = out.restored !== undefined;
      const back = out.restored ? [`restored statusLine: ${terminalSafe(String(out.restored.command ?? ""))}`] : [];
      const settings = plugin ? plugin.edit(out.settings) : out.settings;
      const report = [...out.removed.map((l) => `removed ${terminalSafe(l)}`), ...back, ...(plugin?.report ?? [])];
      return { settings, report };
    },
    { dropIfCreated: true },
  );
  plugin?.files();
  if (restored && !target.dryRun) forgetStatusline(deps.env, target.path);
  if (!target.dryRun) forgetInstall(deps.env, readSettingsText(target.path).realPath);
  return code;
}

/**
 * While the settings file is exactly what `ctx install` wrote, puts the user's bytes from before it
 * back as they were (key order, inline objects, final newline), after a backup of ctx's version.
 */
function restoreExactly(target: SettingsTarget, deps: Deps): boolean {
  const first = readSettingsText(target.path);
  if (!first.exists) return false;
  return withLock(settingsLockPath(first), () => {
    const file = readSettingsText(target.path);
    const original = file.exists ? originalBytes(deps.env, file.realPath, file.text) : undefined;
    if (!original) return false;
    const backups = target.project ? projectBackupDir(deps.env, file.realPath) : undefined;
    deps.stdout(`backup: ${backupSettings(file, deps.now(), backups)}\n`);
    writeSettingsText(file, original.text);
    forgetInstall(deps.env, file.realPath);
    deps.stdout(`restored ${file.path} byte for byte from ${original.backup} (unchanged since ctx install)\n`);
    return true;
  });
}
