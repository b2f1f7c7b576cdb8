/** The monitor's debounce under its lock (state/monitor/<sid>.json), and what to do without it. */
import type { Config } from "../core/config-schema.ts";
import { debounceStep, initialMonitorState, parseMonitorState, type MonitorState } from "../core/debounce.ts";
import { debug, type Deps } from "../core/deps.ts";
import { STATE_DIRS } from "../core/layout.ts";
import type { Level } from "../core/levels.ts";
import { HOOK_TIMEOUT_S } from "../core/settings/entries.ts";
import { ensureDirUnder } from "../io/fs/dirs.ts";
import { LockTimeout, withLock } from "../io/fs/lock.ts";
import { readFileSafe } from "../io/fs/read.ts";
import { readState } from "../io/fs/state-file.ts";
import { unlinkQuiet } from "../io/fs/sys.ts";
import { writeJsonAtomic } from "../io/fs/write.ts";

/**
 * The debounce step, or what to do without it: a debounce that cannot be written (read-only, full disk, a
 * symlinked root), or whose lock the same live holder kept all through the wait (hung or planted: it must
 * not silence CONTEXT CRITICAL), warns rather than never. A lock that changed hands meanwhile is a queue of
 * monitor calls of the same moment, which decide in turn: this one stays quiet and the count stays exact.
 */
export function debounced(deps: Deps, root: string, path: string, level: Level, cfg: Config, now: number): boolean {
  const holder = level === "ok" ? undefined : readFileSafe(`${path}.lock`, { maxBytes: 4096 });
  try {
    return step(root, path, level, cfg, now);
  } catch (err) {
    const busy = err instanceof LockTimeout;
    debug(deps, `monitor: debounce not ${busy ? "reached" : "written"} (${(err as Error).message})`);
    return !busy || (holder !== undefined && readFileSafe(`${path}.lock`, { maxBytes: 4096 }) === holder);
  }
}

/** Runs the debounce of one state file (a session's or a subagent's) under its lock, so parallel tool calls count exactly. */
function step(root: string, path: string, level: Level, cfg: Config, now: number): boolean {
  if (level === "ok") {
    // Usage is back below the warning level: forget the debounce (no lock needed to delete).
    unlinkQuiet(path);
    return false;
  }
  ensureDirUnder(root, STATE_DIRS.monitor);
  return withLock(
    `${path}.lock`,
    () => {
      // A corrupt state is kept aside as <file>.corrupt-<ms> and the debounce starts over.
      const prev: MonitorState = readState(path, parseMonitorState, now) ?? initialMonitorState(now);
      const next = debounceStep(prev, level, cfg["monitor.debounce_calls"], now);
      writeJsonAtomic(path, next.state);
      return next.fire;
    },
    DEBOUNCE_LOCK,
  );
}

/**
 * The debounce lock's wait: a burst of parallel tool calls on a small machine queues up here, so it
 * may wait long enough to count every call, and still well under the 10 s the hook is registered with.
 */
const DEBOUNCE_LOCK = { timeoutMs: HOOK_TIMEOUT_S.monitor * 1000 * 0.6 };
