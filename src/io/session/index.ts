/**
 * The per-user session index (`${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/<sid>.json`,
 * docs/state.md): the only code that reads or writes it. `ctx track` writes an entry per
 * session (`writeEntry`), `ctx respawn` its `respawn` field (`setRespawn`), both under the
 * entry's lock; `ctx status` and `ctx doctor` read them all (`readIndex`) without a lock.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { asObject } from "../../core/json.ts";
import { INDEX_DIR, layout, userLayout } from "../../core/layout.ts";
import { fileIn } from "../../core/paths.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { parseIndexEntry, type IndexEntry } from "../../core/status/entry.ts";
import type { Supervisor } from "../../core/status/rows.ts";
import type { SessionState } from "../../core/track/state.ts";
import { mtimeMs, readJsonFile } from "../fs/read.ts";
import { ensureDirUnder, realDirsUnder } from "../fs/dirs.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { FUTURE_SLACK_MS, plausibleMs } from "../../core/plausible.ts";
import { pidAlive, withLock, type LockOptions } from "../fs/lock.ts";
import { readState } from "../fs/state-file.ts";
import { parseRecord } from "../../core/respawn/record.ts";
import { listDir } from "../fs/list-dir.ts";
import { STATE_LOCK } from "./store.ts";
import { openDigest } from "./index-digest.ts";
import { CtxError, type Env } from "../../core/deps.ts";

/** One indexed session, with what its own state file adds. */
export interface IndexedSession {
  entry: IndexEntry;
  /** The session's state says it is over: SessionEnd seen, or a /clear replaced it. */
  ended: boolean;
  /** The respawn supervisor's record, when the entry names one. */
  supervisor?: Supervisor;
}

/**
 * Every readable entry of the index; lock files, temp files and broken entries are skipped.
 * An `updated_at` in the future (a clock that was ahead) counts as now at most: it gives way
 * to the entry file's mtime, and when that is in the future too the entry has no update time
 * (so it shows as stale, never as "age 0" forever). With `settledBeforeMs`, an entry last updated
 * before it and unchanged since the last look comes from the index digest (index-digest.ts), unread.
 */
export function readIndex(
  env: Env,
  nowMs: number = Date.now(),
  opts: { settledBeforeMs?: number } = {},
): IndexedSession[] {
  const user = userLayout(env);
  if (user.missing) throw new CtxError(1, user.missing, "set HOME to your home directory (or XDG_STATE_HOME)");
  const dir = user.index;
  if (!realDirsUnder(user.dir, INDEX_DIR)) return []; // a symlinked index is not ours to read
  // Entries last updated before settledBeforeMs are only counted (ctx status without --all): the digest has them.
  const digest = opts.settledBeforeMs === undefined ? undefined : openDigest(env, opts.settledBeforeMs);
  const seen = new Set<string>();
  const out: IndexedSession[] = [];
  for (const name of listDir(dir)) {
    if (!name.endsWith(".json")) continue;
    const sid = name.slice(0, -".json".length);
    if (!isValidSessionId(sid)) continue;
    seen.add(sid);
    const looked = digest?.lookup(sid, join(dir, name));
    if (looked?.hit) {
      out.push(looked.hit);
      continue;
    }
    const r = readJsonFile<unknown>(join(dir, name), { maxBytes: 256 * 1024 });
    const entry = r.status === "ok" ? parseIndexEntry(r.value, sid) : undefined;
    if (entry && entry.updated_ms > nowMs + FUTURE_SLACK_MS)
      entry.updated_ms = plausibleMs(nowMs, mtimeMs(join(dir, name))) || Number.NaN;
    else if (entry) entry.updated_ms = Math.min(entry.updated_ms, nowMs);
    if (!entry) continue;
    const s = { entry, ended: sessionEnded(entry), supervisor: supervisorOf(entry) };
    digest?.remember(sid, looked?.stat, entry, s.ended);
    out.push(s);
  }
  digest?.save(seen);
  return out;
}

/** True when a running `ctx respawn` supervisor watches the session (its index entry names the supervisor's record). */
export function isSupervised(env: Env, sessionId: string): boolean {
  try {
    const path = userLayout(env).indexEntry(sessionId);
    const read = path ? readJsonFile<unknown>(path, { maxBytes: 256 * 1024 }) : undefined;
    const entry = read?.status === "ok" ? parseIndexEntry(read.value, sessionId) : undefined;
    const rec = entry ? recordOf(entry) : undefined;
    return !!rec && rec.phase !== "stopped" && rec.pid > 0 && pidAlive(rec.pid);
  } catch {
    return false; // unreadable: the message says what a user without a supervisor does
  }
}

/** Writes the session's index entry from its state, keeping the `respawn` field that `setRespawn` writes. */
export function writeEntry(env: Env, root: string, state: SessionState, lock: LockOptions = STATE_LOCK): void {
  // A corrupt entry is kept aside as <file>.corrupt-<ms> (docs/state.md) and rewritten.
  updateEntry(env, state.session_id, Date.parse(state.updated_at) || 0, lock, (prev) => ({
    version: 1,
    session_id: state.session_id,
    task_id: state.task_id,
    previous_session_id: state.previous_session_id,
    agent: state.agent,
    project: state.project,
    root,
    state_path: layout(root).stateFile(state.session_id),
    model: state.model,
    used_pct: state.used_pct,
    used_tokens: state.used_tokens,
    window_size: state.window_size,
    context_window: state.context_window,
    context_window_source: state.context_window_source,
    threshold_reached: state.threshold_reached,
    auto_pause_active: state.auto_pause_active,
    limit: state.limit,
    resets_at: state.resets_at,
    respawn: prev?.respawn ?? null,
    updated_at: state.updated_at,
  }));
}

/**
 * Sets the `respawn` field of the session's index entry, keeping every other
 * field. A missing entry is created with what the supervisor knows, so
 * `ctx status` shows it before the first hook.
 */
export function setRespawn(
  env: Env,
  sessionId: string,
  base: { project: string; root: string },
  respawn: Record<string, unknown> | null,
): void {
  // A corrupt entry is kept aside (readState) and started over.
  updateEntry(env, sessionId, Date.now(), { timeoutMs: 1000 }, (prev) => ({
    ...(prev ?? {
      version: 1,
      session_id: sessionId,
      project: base.project,
      root: base.root,
      updated_at: new Date().toISOString(),
    }),
    respawn,
  }));
}

// --- internal ---

/**
 * Read-modify-write of one entry under its lock; nothing for an unsafe id or without a per-user
 * directory (`indexEntry` gives undefined then), never through a symlinked index.
 */
function updateEntry(
  env: Env,
  sessionId: string,
  nowMs: number,
  lock: LockOptions,
  fn: (prev: Record<string, unknown> | undefined) => Record<string, unknown>,
): void {
  const user = userLayout(env);
  const path = user.indexEntry(sessionId);
  if (!path) return;
  ensureDirUnder(user.dir, INDEX_DIR);
  withLock(
    `${path}.lock`,
    () => writeJsonAtomic(path, fn(readState(path, asObject, nowMs, { maxBytes: 1024 * 1024 }))),
    lock,
  );
}

/**
 * True when the entry's session can no longer run: its state root is gone (the project's `.ctx/`
 * removed, `git clean -fdx`), or the state file it names under that root is. An entry the respawn
 * supervisor made before the first hook (no state path yet) is not dead.
 */
export function stateGone(e: Pick<IndexEntry, "root" | "state_path" | "session_id">): boolean {
  if (!e.root.startsWith("/")) return false;
  if (!existsSync(e.root)) return true;
  if (fileIn(layout(e.root).sessionsState, e.state_path) !== `${e.session_id}.json`) return false;
  return readJsonFile<unknown>(e.state_path, { maxBytes: 1024 * 1024 }).status === "missing";
}

/**
 * Reads the state file the entry points to, only when it is `<root>/state/sessions/<sid>.json` (never an
 * arbitrary path): SessionEnd seen, a /clear replaced it, or its state is gone (stateGone).
 */
function sessionEnded(e: IndexEntry): boolean {
  if (stateGone(e)) return true;
  if (!e.root.startsWith("/") || fileIn(layout(e.root).sessionsState, e.state_path) !== `${e.session_id}.json`)
    return false;
  const r = readJsonFile<Record<string, unknown>>(e.state_path, { maxBytes: 1024 * 1024 });
  if (r.status !== "ok" || !r.value || typeof r.value !== "object") return false;
  const next = r.value.next_session_id;
  return r.value.last_event === "SessionEnd" || (typeof next === "string" && next !== "");
}

/** How many of a supervisor's events `ctx status` shows. */
const RECENT_EVENTS = 5;

/**
 * The supervisor's record the entry's `respawn.state_path` names, only when
 * it is `<root>/state/respawn/<name>.json` of the entry's root (never an arbitrary path): whether its
 * process lives, and its recent events.
 */
function supervisorOf(e: IndexEntry): Supervisor | undefined {
  const rec = recordOf(e);
  if (!rec) return undefined;
  return {
    alive: rec.phase === "stopped" || (rec.pid > 0 && pidAlive(rec.pid)),
    events: rec.events.slice(-RECENT_EVENTS).map((ev) => ({ at: ev.at, event: ev.event, detail: ev.detail ?? null })),
  };
}

/** The supervisor's record the entry names, read without a lock and never set aside (we only look). */
function recordOf(e: IndexEntry): ReturnType<typeof parseRecord> {
  const r = e.respawn;
  const path = r && typeof r === "object" ? (r as Record<string, unknown>).state_path : undefined;
  const name = e.root.startsWith("/") ? fileIn(layout(e.root).respawn, path) : undefined;
  if (!name || !/^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.json$/.test(name)) return undefined;
  const read = readJsonFile<unknown>(path as string, { maxBytes: 4 * 1024 * 1024 });
  return read.status === "ok" ? parseRecord(read.value) : undefined;
}
