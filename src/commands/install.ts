/**
 * `ctx install [--project] [--<agent>] [--dry-run] [--force-statusline|--keep-statusline]`: merges ctx's
 * hooks and statusLine into the agent's settings, after a timestamped backup; running it twice adds nothing.
 */
import { dirname } from "node:path";
import { CtxError, type Deps } from "../core/deps.ts";
import { parseFor } from "./args.ts";
import { setBudget } from "./config.ts";
import type { Agent } from "../core/settings/entries.ts";
import { agent as agentAdapter, flaggedAgent } from "../core/agents/index.ts";
import { parseSettings, printSettings } from "../core/settings/json-text.ts";
import { installInto, type OtherStatusline, SettingsShapeError } from "../core/settings/merge.ts";
import { ensureDir } from "../io/fs/dirs.ts";
import { rememberStatusline } from "../io/statusline-record.ts";
import { recordInstall } from "../io/install-record.ts";
import { warnBothLevels } from "./install-warn.ts";
import { readHooksFile, trustCtxHooks } from "../io/codex-trust.ts";
import { foreignReport } from "./doctor-codex.ts";
import { withLock } from "../io/fs/lock.ts";
import { pluginSetup } from "../io/plugin-file.ts";
import { installPlugin } from "./install-plugin.ts";
import { installReport } from "./install-report.ts";
import {
  backupSettings,
  createdByCtx,
  removeEmptyDir,
  removeSettingsFile,
  projectBackupDir,
  projectRoot,
  readSettingsText,
  selfBinary,
  settingsLockPath,
  settingsPath,
  type SettingsText,
  writeSettingsText,
} from "../io/settings-file.ts";

/** Options shared by install and uninstall. */
export interface SettingsTarget {
  /** The agent whose settings are edited. */
  agent: Agent;
  /** The settings file. */
  path: string;
  /** Print what would change, write nothing. */
  dryRun: boolean;
  /** A project's settings file (`--project`): teams commit it, so no machine path and no backup in it. */
  project: boolean;
}

/** Entry point: registers the running binary. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  return install(argv, deps, selfBinary());
}

/** `ctx install` with the binary to register given explicitly (tests pass a built one). */
export function install(argv: string[], deps: Deps, binary: string | undefined): number {
  const { target, other } = parseTarget(argv, deps, true);
  if (binary === undefined) {
    throw new CtxError(
      1,
      "ctx install must be run by the compiled ctx binary, whose path goes into the hooks",
      "build it with `bun build.ts`, then run `dist/ctx install` (or `sh install.sh --hooks`)",
    );
  }
  // `--budget 200k`: the context budget goes into the user config file (checked before any hook is written)
  const budget = parseFor("install", argv).values.budget;
  if (typeof budget === "string" && !target.dryRun) setBudget(budget, deps);
  // a project's file is shared: its commands run the ctx on each member's PATH
  const written = target.project ? "ctx" : binary;
  const agentPlugin = agentAdapter(target.agent).plugin; // a client that takes a plugin file, not hook entries
  if (agentPlugin) return pluginSetup(deps, agentPlugin, { ...target, install: true, command: written });
  if (target.project) warnBothLevels(target, deps);
  let previous: Record<string, unknown> | undefined;
  const plugin = installPlugin(target, deps, binary); // the mod, for clients that run mods
  const code = editSettings(
    target,
    deps,
    (value) => {
      const result = installInto(value, { agent: target.agent, binary: written, otherStatusline: other });
      previous = result.previousStatusline;
      const report = [...installReport(result, target), ...(plugin?.report ?? [])];
      return { settings: plugin ? plugin.edit(result.settings) : result.settings, report };
    },
    { record: true },
  );
  plugin?.files();
  // what ctx's statusLine took the place of, for uninstall to put back exactly
  if (previous && !target.dryRun) rememberStatusline(deps.env, target.path, previous);
  // Codex runs a hook only once trusted: record it as Codex does (`codex exec` skips untrusted hooks silently),
  // for ctx's own entries only (exact command, where ctx wrote it); every other one is the user's to review.
  if (target.agent === "codex" && !target.dryRun) {
    const say = (l: string) => deps.stdout(`${l}\n`);
    const out = trustCtxHooks(deps.env, target.path, readHooksFile(target.path), (b) => b === written, say);
    deps.stdout(out.trusted.map((key) => `trusted ${key}\n`).join("") + foreignReport(out.foreign).join(""));
  }
  return code;
}

/** Parses install/uninstall flags into a target (`forInstall`: the status-line flags too); else a usage error. */
export function parseTarget(
  argv: string[],
  deps: Deps,
  forInstall: boolean,
): { target: SettingsTarget; other: OtherStatusline } {
  const values = parseFor(forInstall ? "install" : "uninstall", argv).values;
  if (values["force-statusline"] && values["keep-statusline"])
    throw new CtxError(2, "--force-statusline and --keep-statusline exclude each other");
  const agent = flaggedAgent(values);
  if (typeof agent !== "string") throw new CtxError(2, agent.error);
  const project = values.project ? projectRoot(deps.env, deps.cwd) : undefined;
  const target = {
    agent,
    path: settingsPath(deps.env, agent, project),
    dryRun: values["dry-run"] === true,
    project: project !== undefined,
  };
  const other: OtherStatusline = values["force-statusline"] ? "replace" : values["keep-statusline"] ? "keep" : "chain";
  return { target, other };
}

/**
 * Reads, parses and transforms a settings file under its lock, then backs it
 * up and writes it, unless nothing changed or it is a dry run.
 */
export function editSettings(
  target: SettingsTarget,
  deps: Deps,
  transform: (value: Record<string, unknown>) => { settings: Record<string, unknown>; report: string[] },
  opts: { dropIfCreated?: boolean; record?: boolean } = {},
): number {
  let dropped: string | undefined;
  const body = (): number => {
    const file = readSettingsText(target.path);
    const parsed = parseSettings(file.text);
    if (!parsed.ok) {
      throw new CtxError(
        1,
        `${file.path}:${parsed.line}:${parsed.column}: ${parsed.message}; not changing it`,
        "fix the JSON there (or move the file aside) and run the command again",
      );
    }
    const out = applyTransform(file, parsed.value, transform);
    const text = printSettings(out.settings, parsed.indent);
    const same = JSON.stringify(out.settings) === JSON.stringify(parsed.value);
    const unchanged = same && (file.exists || Object.keys(out.settings).length === 0);
    deps.stdout(out.report.map((l) => `${l}\n`).join(""));
    const backups = target.project ? projectBackupDir(deps.env, file.realPath) : undefined;
    const created = opts.dropIfCreated && file.exists && createdByCtx(file, out.settings, backups);
    if (unchanged) deps.stdout(`${file.path}: already up to date, nothing written\n`);
    else if (target.dryRun) deps.stdout(`dry run: would ${created ? "remove" : "write"} ${file.path}:\n${text}`);
    else if (created) {
      removeSettingsFile(file);
      dropped = dirname(file.realPath);
      deps.stdout(`removed ${file.realPath} (ctx created it, and nothing else is left in it)\n`);
    } else commit(file, text, deps, backups, opts.record);
    return 0;
  };
  if (target.dryRun) return body();
  const first = readSettingsText(target.path);
  ensureDir(dirname(first.realPath));
  const code = withLock(settingsLockPath(first), body);
  if (dropped && removeEmptyDir(dropped)) deps.stdout(`removed ${dropped}/ (left empty)\n`);
  return code;
}

// --- internal ---

function applyTransform(
  file: SettingsText,
  value: Record<string, unknown>,
  transform: (value: Record<string, unknown>) => { settings: Record<string, unknown>; report: string[] },
): { settings: Record<string, unknown>; report: string[] } {
  try {
    return transform(value);
  } catch (err) {
    if (err instanceof SettingsShapeError)
      throw new CtxError(
        1,
        `${file.path}: ${err.message}; not changing it`,
        "fix that key by hand, then run the command again",
      );
    throw err;
  }
}

function commit(file: SettingsText, text: string, deps: Deps, backups?: string, record?: boolean): void {
  const backup = file.exists ? backupSettings(file, deps.now(), backups) : undefined;
  if (backup) deps.stdout(`backup: ${backup}\n`);
  writeSettingsText(file, text);
  // what install wrote and where the user's bytes are, for uninstall to restore them exactly
  if (record) recordInstall(deps.env, file.realPath, file.exists ? file.text : undefined, text, backup);
  deps.stdout(`wrote ${file.path}\n`);
}
