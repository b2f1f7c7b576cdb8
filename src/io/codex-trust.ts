/**
 * Codex CLI's hook trust in its config.toml (`$CODEX_HOME/config.toml`, else `~/.codex/config.toml`):
 * `ctx install --codex` trusts ctx's hooks as Codex itself records it, `ctx uninstall --codex` removes
 * exactly those tables, and `ctx doctor --codex` tells trusted, modified (needs trust again) or untrusted.
 * The rules are in core/agents/codex-trust.ts; this file reads, hashes and writes.
 */
import { createHash } from "node:crypto";
import { statSync, unlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import {
  type CodexHookId,
  ctxHookIds,
  type ForeignHook,
  hookOwnership,
  readTrust,
  withoutTrust,
  withTrust,
} from "../core/agents/codex-trust.ts";
import type { Env } from "../core/deps.ts";
import { usableDir } from "../core/paths.ts";
import { parseSettings } from "../core/settings/json-text.ts";
import { withLock } from "./fs/lock.ts";
import { readFileSafe } from "./fs/read.ts";
import { writeFileAtomic } from "./fs/write.ts";
import { backupSettings, projectBackupDir, readSettingsText } from "./settings-file.ts";

/** The trust of one ctx hook. */
export interface HookTrust {
  key: string;
  state: "trusted" | "modified" | "untrusted";
}

/** The user's Codex config.toml (trust is always recorded there, for the project's hooks.json too). */
export function codexConfigPath(env: Env): string | undefined {
  if (env.CODEX_HOME && isAbsolute(env.CODEX_HOME)) return join(env.CODEX_HOME, "config.toml");
  const home = usableDir(env.HOME);
  return home ? join(home, ".codex", "config.toml") : undefined;
}

/** The hash Codex records for a hook identity: `sha256:<hex>`. */
function codexHash(identity: string): string {
  return `sha256:${createHash("sha256").update(identity).digest("hex")}`;
}

/** Which binaries make a ctx hook command ctx's own: `ctx` in a project's file, the registered one in the user's. */
export type OwnBinary = (binary: string) => boolean;

/**
 * Trusts ctx's own hooks of the parsed hooks.json at `hooksPath` (core/agents/codex-trust.ts
 * `hookOwnership`: exact command, at the position ctx writes it), never a foreign one; returns the
 * keys newly trusted or refreshed and the foreign hooks, for install to report. The backup of the
 * user's config.toml is said through `say`.
 */
export function trustCtxHooks(
  env: Env,
  hooksPath: string,
  settings: unknown,
  ownBinary: OwnBinary,
  say?: (line: string) => void,
): { trusted: string[]; foreign: ForeignHook[] } {
  const { own, foreign } = hookOwnership(hooksPath, settings, ownBinary);
  const ids = own.map((id) => ({ key: id.key, hash: codexHash(id.identity) }));
  const path = codexConfigPath(env);
  if (!path || ids.length === 0) return { trusted: [], foreign };
  const trusted = editConfig(
    path,
    (text) => {
      const have = readTrust(text);
      const wanted = ids.filter((id) => have.get(id.key) !== id.hash);
      return { text: withTrust(text, wanted), changed: wanted.map((w) => w.key) };
    },
    say,
    env,
  );
  return { trusted, foreign };
}

/** Removes the trust tables of the ctx hooks of the parsed hooks.json at `hooksPath` (as it was before uninstall). */
export function untrustCtxHooks(
  env: Env,
  hooksPath: string,
  settings: unknown,
  say?: (line: string) => void,
): string[] {
  const keys = new Set(ctxHookIds(hooksPath, settings).map((id) => id.key));
  const path = codexConfigPath(env);
  if (!path || keys.size === 0) return [];
  return editConfig(
    path,
    (text) => {
      const gone = [...readTrust(text).keys()].filter((k) => keys.has(k));
      return { text: withoutTrust(text, keys), changed: gone };
    },
    say,
    env,
  );
}

/** The trust of ctx's own hooks and of every foreign hook of the parsed hooks.json at `hooksPath`, as Codex will judge it. */
export function hookTrust(
  env: Env,
  hooksPath: string,
  settings: unknown,
  ownBinary: OwnBinary,
): { own: HookTrust[]; foreign: (HookTrust & { command: string })[] } {
  const path = codexConfigPath(env);
  const have = readTrust((path && readFileSafe(path, { maxBytes: 4 << 20 })) ?? "");
  const stateOf = (id: CodexHookId): HookTrust["state"] => {
    const recorded = have.get(id.key);
    return recorded === undefined ? "untrusted" : recorded === codexHash(id.identity) ? "trusted" : "modified";
  };
  const { own, foreign } = hookOwnership(hooksPath, settings, ownBinary);
  return {
    own: own.map((id) => ({ key: id.key, state: stateOf(id) })),
    foreign: foreign.map((id) => ({ key: id.key, state: stateOf(id), command: id.command })),
  };
}

/** True when the user's config.toml turns on Codex's built-in context item (`[tui] status_line` with `context-used`). */
export function codexContextItemOn(env: Env): boolean {
  const path = codexConfigPath(env);
  const text = (path && readFileSafe(path, { maxBytes: 4 << 20 })) ?? "";
  return /^\s*status_line\s*=\s*\[[^\]]*"context-(used|remaining)/m.test(text);
}

/** True when the user's config.toml trusts `project` (`[projects."<dir>"] trust_level = "trusted"`): Codex loads a project's `.codex/` only then. */
export function codexProjectTrusted(env: Env, project: string): boolean {
  const path = codexConfigPath(env);
  const text = (path && readFileSafe(path, { maxBytes: 4 << 20 })) ?? "";
  const header = `[projects.${JSON.stringify(project)}]`;
  const at = text.indexOf(header);
  if (at < 0) return false;
  const body = text.slice(at + header.length).split(/^\s*\[/m)[0] ?? "";
  return /^\s*trust_level\s*=\s*"trusted"/m.test(body);
}

/** The parsed hooks.json at `path` (its real file), or undefined when missing or not JSON. */
export function readHooksFile(path: string): unknown {
  const parsed = parseSettings(readSettingsText(path).text);
  return parsed.ok ? parsed.value : undefined;
}

// --- internal ---

/**
 * A read-modify-write of config.toml under a lock, atomic, after a backup of the user's file (in the
 * per-user state, `install/backups-<key>/config.toml.bak-<stamp>`, said through `say`); a file left
 * empty that ctx created is removed.
 */
function editConfig(
  path: string,
  edit: (text: string) => { text: string; changed: string[] },
  say: ((line: string) => void) | undefined,
  env: Env,
): string[] {
  const lock = join(path, "..", ".config.toml.ctx-lock");
  return withLock(lock, () => {
    const before = readFileSafe(path, { maxBytes: 4 << 20 });
    const out = edit(before ?? "");
    if (out.changed.length === 0 || out.text === before) return out.changed;
    // the backup goes to the per-user state, not into $CODEX_HOME (Codex's own folder stays as it was)
    const file = readSettingsText(path);
    if (before !== undefined)
      say?.(`backup: ${backupSettings(file, Date.now(), projectBackupDir(env, file.realPath))}`);
    if (out.text === "" && before !== undefined) unlinkSync(path);
    else writeFileAtomic(path, out.text, modeOf(path));
    return out.changed;
  });
}

function modeOf(path: string): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o600;
  }
}
