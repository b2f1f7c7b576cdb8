/**
 * Gathers the evidence for a session's context window (core/window.ts): the
 * windows the status line remembered per model id, and what the running Claude
 * Code client was asked for (its argv and environment from /proc, the settings
 * files), cached per session and client process so the monitor reads /proc
 * and the settings once, not on every tool call.
 */
import { isObject } from "../../core/json.ts";
import { join } from "../../core/pathx.ts";
import { layout, STATE_DIRS, userLayout } from "../../core/layout.ts";
import { homeDir } from "../../core/paths.ts";
import { count } from "../../core/usage.ts";
import { chooseModel, type ClientChoice, type SettingsModels } from "../../core/window.ts";
import type { AutoCompaction } from "../../core/window-evidence.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { readJsonFile } from "../fs/read.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { withLock } from "../fs/lock.ts";
import { findClaudePid, parentPid, readProc } from "../process/proc.ts";
import type { Env } from "../../core/deps.ts";

/** At most this many model ids are remembered (the most recently changed ones). */
const MAX_REMEMBERED = 256;

/** The remembered windows (model id → tokens); empty when the file is missing or broken. */
export function readRemembered(env: Env): Record<string, number> {
  const read = readJsonFile<unknown>(userLayout(env).windows, { maxBytes: 256 * 1024 });
  if (read.status !== "ok" || !isObject(read.value)) return {};
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(read.value)) if (typeof v === "number" && v > 0) out[k] = v;
  return out;
}

/**
 * Remembers `window` for `model` when it is missing or differs (the status line's hot
 * path: a read, and a locked atomic write only on a change). Returns true when it wrote.
 */
export function rememberWindow(env: Env, model: string, window: number): boolean {
  if (!model || model.length > 200 || !(window > 0) || readRemembered(env)[model] === window) return false;
  const { windows: path, dir, missing } = userLayout(env);
  if (missing) return false; // no per-user directory (HOME unset): nothing is remembered
  ensureDirUnder(dir); // never through a symlinked state directory
  return withLock(
    `${path}.lock`,
    () => {
      const all = readRemembered(env);
      if (all[model] === window) return false;
      delete all[model]; // re-added last: the oldest ids go first past the cap
      all[model] = window;
      for (const old of Object.keys(all).slice(0, Math.max(0, Object.keys(all).length - MAX_REMEMBERED)))
        delete all[old];
      writeJsonAtomic(path, all);
      return true;
    },
    { timeoutMs: 200 },
  ); // the status line must not wait long: the next run tries again
}

/** The cached window evidence of a session (`<root>/state/window/<sid>.json`). */
interface ClientCache {
  claude_pid: number | null;
  choice: ClientChoice;
  /** The session's newest automatic compaction, as `ctx track` read it from the transcript. */
  auto_compaction?: { pre_tokens: number; model: string | null };
}

/** What the hooks learned about a session's window beyond its transcript's tail. */
export interface SessionEvidence {
  client: ClientChoice;
  autoCompaction?: AutoCompaction;
}

/**
 * What the session's client was asked for. Read from /proc and the settings files
 * once per client process and cached; a process that is not a Claude Code hook
 * (no `CLAUDECODE` / `CLAUDE_CODE_SESSION_ID` in its environment: a detached
 * finalize, `ctx status`, respawn) gets what the hooks saw.
 */
export function clientChoice(
  env: Env,
  root: string,
  project: string,
  sessionId: string,
  procRoot = "/proc",
  selfPid = process.pid,
): ClientChoice {
  return sessionEvidence(env, root, project, sessionId, procRoot, selfPid).client;
}

/** `clientChoice`, and the automatic compaction `ctx track` remembered, from one read of the cache. */
export function sessionEvidence(
  env: Env,
  root: string,
  project: string,
  sessionId: string,
  procRoot = "/proc",
  selfPid = process.pid,
): SessionEvidence {
  const cachePath = layout(root).windowFile(sessionId);
  // Only a hook Claude Code runs says so in its environment: a test or a script run from a
  // Claude Code Bash tool must not take that session's client for its own.
  const hook = !!(env.CLAUDECODE || env.CLAUDE_CODE_SESSION_ID);
  const cached = cachePath ? readCache(cachePath) : undefined;
  const compaction = cached?.auto_compaction;
  const autoCompaction = compaction && { preTokens: compaction.pre_tokens, model: compaction.model ?? undefined };
  const out = (client: ClientChoice): SessionEvidence => (autoCompaction ? { client, autoCompaction } : { client });
  // The usual hook runs as claude → sh → ctx: a cache of that process costs at most one /proc read.
  if (cached && (!hook || nearAncestor(cached.claude_pid, selfPid, procRoot))) return out(cached.choice);
  const pid = hook ? findClaudePid(selfPid, procRoot) : undefined;
  if (cached && (pid === undefined || cached.claude_pid === pid)) return out(cached.choice);
  if (pid === undefined) return out({ found: false, model: null, source: null });
  // The client reads its project settings where it was started (a subfolder of ctx's project, maybe).
  const launched = env.CLAUDE_PROJECT_DIR?.startsWith("/") ? env.CLAUDE_PROJECT_DIR : project;
  const choice = gatherChoice(env, launched, pid, procRoot);
  try {
    const next: ClientCache = { claude_pid: pid, choice, ...(compaction ? { auto_compaction: compaction } : {}) };
    if (cachePath) writeJsonAtomic(cachePath, next);
  } catch {
    // a read-only state directory: gather again next time
  }
  return out(choice);
}

/**
 * Remembers the session's newest automatic compaction (ctx track, when its reading of the
 * transcript passes one) next to the client choice, where the monitor reads it at no extra cost.
 */
export function rememberCompaction(root: string, sessionId: string, c: AutoCompaction): void {
  const path = layout(root).windowFile(sessionId);
  if (!path) return;
  ensureDirUnder(root, STATE_DIRS.window);
  withLock(
    `${path}.lock`,
    () => {
      const cached = readCache(path) ?? { claude_pid: null, choice: { found: false, model: null, source: null } };
      const next = { pre_tokens: c.preTokens, model: c.model ?? null };
      if (cached.auto_compaction?.pre_tokens === next.pre_tokens && cached.auto_compaction.model === next.model) return;
      writeJsonAtomic(path, { ...cached, auto_compaction: next } satisfies ClientCache);
    },
    { timeoutMs: 200 },
  );
}

/** Reads what Claude Code process `pid` was asked for: its argv, its environment, the settings files. */
export function gatherChoice(env: Env, project: string, pid: number, procRoot = "/proc"): ClientChoice {
  const argv = readNul(`${procRoot}/${pid}/cmdline`);
  if (!argv) return { found: false, model: null, source: null };
  const clientEnv: Env = {};
  for (const pair of readNul(`${procRoot}/${pid}/environ`) ?? []) {
    const eq = pair.indexOf("=");
    if (eq > 0) clientEnv[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  // Without a readable environment (another user's process), fall back to our own: hooks inherit the client's.
  const modelEnv = Object.keys(clientEnv).length ? clientEnv : env;
  const configDir = modelEnv.CLAUDE_CONFIG_DIR?.startsWith("/")
    ? modelEnv.CLAUDE_CONFIG_DIR
    : join(homeDir(modelEnv.HOME ? modelEnv : env), ".claude");
  const user = readSettings(join(configDir, "settings.json"));
  const shared = readSettings(join(project, ".claude", "settings.json"));
  const local = readSettings(join(project, ".claude", "settings.local.json"));
  const settings: SettingsModels = { user: user.model, project: shared.model, local: local.model };
  // A settings file's `env` block is the client's environment too (it reaches its requests and hooks).
  const merged = { ...modelEnv, ...user.env, ...shared.env, ...local.env };
  return { found: true, ...chooseModel(argv.slice(1), merged, settings) };
}

// --- internal ---

/** True when `pid` is the parent or the grandparent of `self`. */
function nearAncestor(pid: number | null, self: number, procRoot: string): boolean {
  if (pid === null) return false;
  const parent = self === process.pid && procRoot === "/proc" ? process.ppid : parentPid(self, procRoot);
  return parent === pid || (parent !== undefined && parentPid(parent, procRoot) === pid);
}

function readCache(path: string): ClientCache | undefined {
  const read = readJsonFile<unknown>(path, { maxBytes: 64 * 1024 });
  if (read.status !== "ok" || !isObject(read.value) || !isObject(read.value.choice)) return undefined;
  const c = read.value.choice;
  const source = c.source === "client_args" || c.source === "client_env" || c.source === "settings" ? c.source : null;
  const model = typeof c.model === "string" && source ? c.model : null;
  const pid = typeof read.value.claude_pid === "number" ? read.value.claude_pid : null;
  const choice: ClientChoice = { found: c.found === true, model, source: model ? source : null };
  if (model && c.implicit === true) choice.implicit = true;
  const ac = read.value.auto_compaction;
  const pre = isObject(ac) ? count(ac.pre_tokens) : 0;
  if (!isObject(ac) || pre === 0) return { claude_pid: pid, choice };
  const acModel = typeof ac.model === "string" && ac.model.length <= 200 ? ac.model : null;
  return { claude_pid: pid, choice, auto_compaction: { pre_tokens: pre, model: acModel } };
}

/** The `model` key and the model variables of the `env` block of a settings file (nothing when unreadable). */
function readSettings(path: string): { model?: string; env: Env } {
  const read = readJsonFile<unknown>(path, { maxBytes: 4 * 1024 * 1024 });
  if (read.status !== "ok" || !isObject(read.value)) return { env: {} };
  const { model, env } = read.value;
  const vars: Env = {};
  if (isObject(env))
    for (const [k, v] of Object.entries(env))
      if (/^ANTHROPIC_(DEFAULT_\w+_)?MODEL$/.test(k) && typeof v === "string") vars[k] = v;
  return { model: typeof model === "string" && model.trim() !== "" ? model : undefined, env: vars };
}

/** A NUL-separated /proc file (size 0 on stat, so read to the end), or undefined when unreadable. */
function readNul(path: string): string[] | undefined {
  const text = readProc(path);
  return text ? text.split("\0").filter((s) => s !== "") : undefined;
}
