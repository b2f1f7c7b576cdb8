import { join } from "node:path";
import { sessionFile, userStateDir } from "../../core/paths.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import type { PauseEntry } from "../../core/track/pause.ts";
import { parseState, type SessionState } from "../../core/track/state.ts";
import { closeQuiet } from "../fs/sys.ts";
import { ensureDirUnder, realDirsUnder } from "../fs/dirs.ts";
import { openAppendFile, writeJsonAtomic } from "../fs/write.ts";
import { sys } from "../fs/sys.ts";
import { withLock, type LockOptions } from "../fs/lock.ts";
import { readState } from "../fs/state-file.ts";
import { asObject } from "../../core/json.ts";
import type { Env } from "../../core/deps.ts";
import { listDir } from "../fs/list-dir.ts";

/**
 * Lock options for state files: many hooks may queue up behind one another, but
 * never longer than a hook may run (monitor is registered with 10 s, track with 30 s; track also
 * shares one budget across its waits).
 */
export const STATE_LOCK: LockOptions = { timeoutMs: 8_000, staleMs: 10_000 };

/** Lock options that share one budget: each wait gets what is left of `totalMs` (at least one try). */
export function lockBudget(totalMs: number, clock: () => number = Date.now): () => LockOptions {
  const deadline = clock() + totalMs;
  return () => ({ ...STATE_LOCK, timeoutMs: Math.max(0, deadline - clock()) });
}

/** `<root>/state/sessions`. */
export function sessionsStateDir(root: string): string {
  return join(root, "state", "sessions");
}

/** `<root>/sessions`: pause logs and finalized records. */
export function recordsDir(root: string): string {
  return join(root, "sessions");
}

/** `<root>/state/sessions/<sid>.json`, or undefined for an unsafe id. */
export function statePath(root: string, sessionId: string): string | undefined {
  return sessionFile(sessionsStateDir(root), sessionId);
}

/** `<root>/state/sessions/<sid>.json.finalize.lock`: held while `ctx finalize` writes the session's summary. */
export function finalizeLockPath(root: string, sessionId: string): string | undefined {
  const path = statePath(root, sessionId);
  return path && `${path}.finalize.lock`;
}

/** `<root>/sessions/ACTIVE-PAUSE-<sid>.jsonl`, or undefined for an unsafe id. */
export function pauseLogPath(root: string, sessionId: string): string | undefined {
  return isValidSessionId(sessionId) ? join(recordsDir(root), `ACTIVE-PAUSE-${sessionId}.jsonl`) : undefined;
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
  const path = statePath(root, sessionId);
  if (!path) throw new Error("unsafe session id");
  ensureDirUnder(root, "state/sessions"); // refuses a symlink at the root or any level
  return withLock(
    `${path}.lock`,
    () => {
      const result = fn(loadState(path, nowMs));
      if (result) {
        writeJsonAtomic(path, result.state);
        writeJsonAtomic(join(root, "state", "context-usage.json"), result.state);
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
  const path = pauseLogPath(root, sessionId);
  if (!path || entries.length === 0) return;
  ensureDirUnder(root, "sessions");
  const fd = openAppendFile(path);
  try {
    for (const e of entries) sys().writeAll(fd, Buffer.from(`${JSON.stringify(e)}\n`));
  } finally {
    closeQuiet(fd);
  }
}

/**
 * Writes the per-user index entry `${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/<sid>.json`,
 * keeping the `respawn` field that respawn writes.
 */
export function writeIndexEntry(env: Env, root: string, state: SessionState, lock: LockOptions = STATE_LOCK): void {
  const dir = join(userStateDir(env), "sessions");
  const path = sessionFile(dir, state.session_id);
  if (!path) return;
  ensureDirUnder(userStateDir(env), "sessions");
  withLock(
    `${path}.lock`,
    () => {
      // A corrupt entry is kept aside as <file>.corrupt-<ms> (docs/state.md) and rewritten.
      const prev = readState(path, asObject, Date.parse(state.updated_at) || 0, { maxBytes: 1024 * 1024 });
      const respawn = prev?.respawn ?? null;
      writeJsonAtomic(path, {
        version: 1,
        session_id: state.session_id,
        task_id: state.task_id,
        project: state.project,
        root,
        state_path: statePath(root, state.session_id),
        model: state.model,
        used_pct: state.used_pct,
        used_tokens: state.used_tokens,
        window_size: state.window_size,
        context_window: state.context_window,
        context_window_source: state.context_window_source,
        threshold_reached: state.threshold_reached,
        auto_pause_active: state.auto_pause_active,
        respawn,
        updated_at: state.updated_at,
      });
    },
    lock,
  );
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
  const dir = sessionsStateDir(root);
  let best: SessionState | undefined;
  for (const name of listDir(dir)) {
    if (!name.endsWith(".json") || name === `${exclude}.json`) continue;
    const s = loadState(join(dir, name), nowMs);
    if (!s || s.claude_pid !== claudePid || s.session_id === exclude) continue;
    if (!best || s.updated_at > best.updated_at) best = s;
  }
  return best;
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
  const path = statePath(root, sessionId);
  if (!path || !realDirsUnder(root, "state/sessions")) return;
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
