import { join } from "node:path";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import type { PauseEntry } from "../../core/track/pause.ts";
import { parseState, type SessionState } from "../../core/track/state.ts";
import { closeQuiet } from "../fs/sys.ts";
import { ensureDirUnder, realDirsUnder } from "../fs/dirs.ts";
import { openAppendFile, writeJsonAtomic } from "../fs/write.ts";
import { sys } from "../fs/sys.ts";
import { withLock, type LockOptions } from "../fs/lock.ts";
import { readState } from "../fs/state-file.ts";
import { listDir } from "../fs/list-dir.ts";
import { processStartMs } from "../process/proc.ts";

/**
 * Lock options for state files: many hooks may queue up behind one another, but
 * never longer than a hook may run (monitor is registered with 10 s, track with 30 s; track also
 * shares one budget across its waits).
 */
export const STATE_LOCK: LockOptions = { timeoutMs: 8_000 };

/** Lock options that share one budget: each wait gets what is left of `totalMs` (at least one try). */
export function lockBudget(totalMs: number, clock: () => number = Date.now): () => LockOptions {
  const deadline = clock() + totalMs;
  return () => ({ ...STATE_LOCK, timeoutMs: Math.max(0, deadline - clock()) });
}

/**
 * Reads a session's state. A file that does not parse is renamed aside to
 * `<file>.corrupt-<ms>` and reads as missing.
 */
export function loadState(path: string, nowMs: number): SessionState | undefined {
  return readState(path, parseState, nowMs, { maxBytes: 4 * 1024 * 1024 });
}

/**
 * Read-modify-write of one session's state under its lock. `fn` gets the current
 * state (undefined when none) and returns the new one, or undefined to write nothing.
 * The new state is also copied to `<root>/state/context-usage.json`.
 */
export function updateState<R extends { state: SessionState } | undefined>(
  root: string,
  sessionId: string,
  nowMs: number,
  fn: (prev: SessionState | undefined) => R,
  lock: LockOptions = STATE_LOCK,
): R {
  const files = layout(root);
  const path = files.stateFile(sessionId);
  if (!path) throw new Error("unsafe session id");
  ensureDirUnder(root, STATE_DIRS.sessionsState); // refuses a symlink at the root or any level
  return withLock(
    `${path}.lock`,
    () => {
      const result = fn(loadState(path, nowMs));
      if (result) {
        writeJsonAtomic(path, result.state);
        writeJsonAtomic(files.contextUsage, result.state);
      }
      return result;
    },
    lock,
  );
}

/**
 * Appends entries to the session's pause log (one write per entry), never
 * following a link nor blocking on a FIFO: anything but a regular file there fails.
 */
export function appendPause(root: string, sessionId: string, entries: PauseEntry[]): void {
  const path = layout(root).pauseLog(sessionId);
  if (!path || entries.length === 0) return;
  ensureDirUnder(root, STATE_DIRS.records);
  const fd = openAppendFile(path);
  try {
    for (const e of entries) sys().writeAll(fd, Buffer.from(`${JSON.stringify(e)}\n`));
  } finally {
    closeQuiet(fd);
  }
}

/**
 * The session that the same Claude Code process ran last in this project
 * (the one a `/clear` replaced): same `claude_pid`, not `exclude`, newest update.
 */
export function findPreviousSession(
  root: string,
  claudePid: number,
  exclude: string,
  nowMs: number,
): SessionState | undefined {
  const dir = layout(root).sessionsState;
  // Its hooks wrote it after the process started: older state files are not read (a project keeps thousands).
  const started = processStartMs(claudePid);
  let best: SessionState | undefined;
  for (const name of statesChangedSince(root, started === undefined ? 0 : started - START_SLACK_MS)) {
    if (name === `${exclude}.json`) continue;
    const s = loadState(join(dir, name), nowMs);
    if (!s || s.claude_pid !== claudePid || s.session_id === exclude) continue;
    if (!best || s.updated_at > best.updated_at) best = s;
  }
  return best;
}

/** Slack for the process start time read from /proc (whole clock ticks, a boot time in whole seconds). */
const START_SLACK_MS = 2000;

/**
 * The names of the session state files (`<sid>.json`) of `root` last modified at or after
 * `sinceMs` (an lstat each, no read); every one when `sinceMs` is 0. The listing is kept for the
 * next second (the resume hook asks twice: the cleared session, then the live chains).
 */
export function statesChangedSince(root: string, sinceMs: number): string[] {
  if (listed?.root !== root || Date.now() - listed.at > 1000) {
    const files = listStates(layout(root).sessionsState);
    listed = { root, at: Date.now(), files };
  }
  return listed.files.filter((f) => f.mtimeMs >= sinceMs).map((f) => f.name);
}

let listed: { root: string; at: number; files: { name: string; mtimeMs: number }[] } | undefined;

function listStates(dir: string): { name: string; mtimeMs: number }[] {
  const out: { name: string; mtimeMs: number }[] = [];
  for (const name of listDir(dir)) {
    if (!name.endsWith(".json")) continue;
    try {
      out.push({ name, mtimeMs: sys().lstat(join(dir, name)).mtimeMs });
    } catch {
      // removed meanwhile
    }
  }
  return out;
}

/** Sets `next_session_id` on the replaced session's state, under its lock. */
export function linkNext(
  root: string,
  previousId: string,
  nextId: string,
  nowMs: number,
  lock: LockOptions = STATE_LOCK,
): void {
  updateStateOnly(root, previousId, nowMs, (s) => ({ ...s, next_session_id: nextId }), lock);
}

/** Read-modify-write of a state without touching context-usage.json (no-op when missing). */
export function updateStateOnly(
  root: string,
  sessionId: string,
  nowMs: number,
  fn: (s: SessionState) => SessionState,
  lock: LockOptions = STATE_LOCK,
): void {
  const path = layout(root).stateFile(sessionId);
  if (!path || !realDirsUnder(root, STATE_DIRS.sessionsState)) return;
  withLock(
    `${path}.lock`,
    () => {
      const s = loadState(path, nowMs);
      if (s) writeJsonAtomic(path, fn(s));
    },
    lock,
  );
}

// --- internal ---
