/** `ctx doctor [--<agent>] [--project]`: checks the wiring and prints what is wrong with the fix; exit 1 on a failure. */
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { CtxError, type Deps } from "../core/deps.ts";
import { agent as adapter, flaggedAgent } from "../core/agents/index.ts";
import { pluginCheck, pluginPath } from "../io/plugin-file.ts";
import { configChecks } from "./doctor-config.ts";
import { stateChecks } from "./doctor-state.ts";
import { codexSetup } from "./doctor-codex.ts";
import { modCheck } from "./doctor-mod.ts";
import { chainCannotRun, which } from "./doctor-chain.ts";
import { parseFor } from "./args.ts";
import { findProject } from "../io/project.ts";
import { userLayout } from "../core/layout.ts";
import { homeDir, tmpDir } from "../core/paths.ts";
import { type Check, checkHooks, type FoundSettings } from "../core/settings/diagnose.ts";
import { geminiChecks } from "../core/agents/gemini-checks.ts";
import type { Agent } from "../core/settings/entries.ts";
import { formatTokens } from "../core/usage.ts";
import { readRecentErrors } from "../io/error-log.ts";
import { readIndex } from "../io/session/index.ts";
import { createNew } from "../io/fs/write.ts";
import { readJsonFile } from "../io/fs/read.ts";
import { unlinkQuiet } from "../io/fs/sys.ts";
import { selfBinary } from "../io/settings-file.ts";
import { readAppliedSettings } from "../io/settings-applied.ts";

/** Entry point: diagnoses the running binary's installation. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  return doctor(argv, deps, selfBinary());
}

/** `ctx doctor` with the running binary given explicitly (undefined when run from source). */
export function doctor(argv: string[], deps: Deps, self: string | undefined): number {
  const { values } = parseFor("doctor", argv);
  const flagged = flaggedAgent(values);
  if (typeof flagged !== "string") throw new CtxError(2, flagged.error);
  const agent: Agent = flagged;
  const project = findProject(deps.env, deps.cwd);
  const plugin = adapter(agent).plugin;
  const settings = plugin ? [] : readAppliedSettings(deps.env, agent, project);
  const installCmd = `ctx install${agent === "claude" ? "" : ` --${agent}`}${values.project ? " --project" : ""}`;
  const checks = [
    ...binaryChecks(deps, self),
    ...(plugin
      ? [
          pluginCheck(
            pluginPath(deps.env, plugin, values.project ? project : undefined),
            plugin,
            self ?? "ctx",
            installCmd,
          ),
        ]
      : hookChecks(deps, agent, self, settings, installCmd)),
    ...configChecks(deps.env, project),
    ...stateChecks(deps.env, project),
    ...(agent === "gemini" ? geminiSetup(deps, settings, project) : []),
    ...(agent === "codex" ? codexSetup(deps, settings, installCmd, project) : []),
    ...(agent === "claude" ? [modCheck(deps, settings, which(deps.env, "claude"))] : []),
    bridgeCheck(deps),
    tmuxCheck(deps),
    errorCheck(deps),
    errorCheck(deps, "unclaimedLog"),
    windowCheck(deps),
  ];
  deps.stdout(renderChecks(checks));
  return checks.some((c) => c.level === "fail") ? 1 : 0;
}

/** The report: one line per check, its fix below, and a closing count. */
function renderChecks(checks: Check[]): string {
  const tag = { ok: "ok  ", warn: "warn", fail: "FAIL" } as const;
  const lines = checks.flatMap((c) => [
    `${tag[c.level]}  ${c.name}: ${c.detail}`,
    ...(c.fix ? [`      fix: ${c.fix}`] : []),
  ]);
  const fails = checks.filter((c) => c.level === "fail").length;
  const warns = checks.filter((c) => c.level === "warn").length;
  lines.push(fails + warns === 0 ? "All good." : `${fails} failed, ${warns} warning(s).`);
  return `${lines.join("\n")}\n`;
}

// --- internal ---

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function binaryChecks(deps: Deps, self: string | undefined): Check[] {
  const onPath = which(deps.env, "ctx");
  const selfReal = self && realpath(self);
  if (onPath === undefined) {
    const dir = self ? dirname(self) : "~/.local/bin";
    return [
      {
        level: "fail",
        name: "binary on PATH",
        detail: "no ctx on PATH",
        fix: `add ${dir} to PATH: export PATH="${dir}:$PATH" in your shell profile`,
      },
    ];
  }
  if (selfReal && realpath(onPath) !== selfReal) {
    return [
      {
        level: "warn",
        name: "binary on PATH",
        detail: `PATH runs ${onPath}, this is ${self}`,
        fix: `put ${dirname(self!)} first on PATH, or remove the other ctx`,
      },
    ];
  }
  return [{ level: "ok", name: "binary on PATH", detail: onPath }];
}

function hookChecks(
  deps: Deps,
  agent: Agent,
  self: string | undefined,
  settings: FoundSettings[],
  installCmd: string,
): Check[] {
  const found = which(deps.env, "ctx");
  const onPath = (found && realpath(found)) || undefined;
  const binary = (self && realpath(self)) || onPath;
  const cannotRun = (command: string) => chainCannotRun(deps.env, command);
  return checkHooks({ agent, settings, binary, onPath, installCmd, realpath, cannotRun });
}

/** What Gemini CLI needs besides the hooks: hooks on, an auth method and a trusted folder for headless runs. */
function geminiSetup(deps: Deps, found: FoundSettings[], project: string): Check[] {
  const settings = found.flatMap((s) => ("error" in s.value ? [] : [s.value as Record<string, unknown>]));
  const read = readJsonFile<unknown>(join(homeDir(deps.env), ".gemini", "trustedFolders.json"), { maxBytes: 1 << 20 });
  const rules = read.status === "ok" && read.value && typeof read.value === "object" ? read.value : {};
  const trusted = Object.entries(rules).some(([dir, rule]) => {
    const base = rule === "TRUST_PARENT" ? dirname(dir) : rule === "TRUST_FOLDER" ? dir : undefined;
    return base !== undefined && (project === base || project.startsWith(`${base.replace(/\/$/, "")}/`));
  });
  return geminiChecks({ settings, env: deps.env, project, trusted });
}

function bridgeCheck(deps: Deps): Check {
  const dir = tmpDir(deps.env);
  const probe = join(dir, `.ctx-doctor-${process.pid}-${deps.now()}`);
  try {
    createNew(probe);
    unlinkQuiet(probe);
    return { level: "ok", name: "bridge directory", detail: `${dir} is writable` };
  } catch (err) {
    return {
      level: "fail",
      name: "bridge directory",
      detail: `${dir} is not writable (${(err as NodeJS.ErrnoException).code})`,
      fix: "set TMPDIR to a writable directory",
    };
  }
}

function tmuxCheck(deps: Deps): Check {
  const tmux = which(deps.env, "tmux");
  if (tmux) return { level: "ok", name: "tmux", detail: tmux };
  return {
    level: "warn",
    name: "tmux",
    detail: "not found: ctx respawn needs it",
    fix: "install tmux (apt install tmux, brew install tmux, …)",
  };
}

function errorCheck(deps: Deps, which: "errorLog" | "unclaimedLog" = "errorLog"): Check {
  const name = which === "errorLog" ? "hook errors" : "input no client claims";
  const lines = readRecentErrors(deps.env, 5, which);
  if (lines.length === 0) return { level: "ok", name, detail: "none recorded" };
  const path = userLayout(deps.env)[which];
  return {
    level: "warn",
    name,
    detail: `last ${lines.length} in ${path}:\n${lines.map((l) => `        ${l}`).join("\n")}`,
    fix: `rerun with CTX_DEBUG=1 for the stack; once fixed, rm ${path}`,
  };
}

/** How many of the newest sessions the window check lists. */
const RECENT_SESSIONS = 5;

/** Per recent session: the context window ctx uses and the source that decided it (issue 16). */
function windowCheck(deps: Deps): Check {
  const recent = readIndex(deps.env)
    .map((s) => s.entry)
    .filter((e) => Number.isFinite(e.updated_ms))
    .sort((a, b) => b.updated_ms - a.updated_ms)
    .slice(0, RECENT_SESSIONS);
  if (recent.length === 0) return { level: "ok", name: "context windows", detail: "no sessions tracked yet" };
  const lines = recent.map((e) => {
    const window = e.window_size ? `${formatTokens(e.window_size)} (${e.window_size})` : "unknown";
    const model = e.model.replace(/[^\x20-\x7e]/g, "?").slice(0, 40) || "?";
    return `        ${e.session_id.slice(0, 8)}  ${model}  window ${window}  source ${e.context_window_source || "?"}`;
  });
  return { level: "ok", name: "context windows", detail: `${recent.length} recent session(s):\n${lines.join("\n")}` };
}
