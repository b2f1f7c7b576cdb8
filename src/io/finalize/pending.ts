/**
 * Is a finalize probably still writing a summary? After `/clear`, the old
 * session's SessionEnd hands finalize to a detached process, and the new
 * session's SessionStart can run before the summary exists.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { layout, STATE_NAMES } from "../../core/layout.ts";
import { readJsonFile } from "../fs/read.ts";
import { listDir } from "../fs/list-dir.ts";
import type { LockOptions } from "../fs/lock.ts";

/**
 * The lock `ctx finalize` holds while it writes a session's summary: it waits up to 2 min for another
 * finalize of the session, and a live holder keeps it up to 5 min (a long transcript takes a while).
 */
export const FINALIZE_LOCK = { timeoutMs: 120_000, staleMs: 300_000 } satisfies LockOptions;

/**
 * True when, since the newest summary (`newestSummaryMs`) and within `recentMs`,
 * another session of this root either ended with auto-pause active (its state
 * file: `auto_pause_active`, `last_event: "SessionEnd"`) or appended to its
 * `ACTIVE-PAUSE-<sid>.jsonl` action log. Both mean a finalize is due.
 */
export function finalizeLikelyRunning(
  root: string,
  exceptSession: string,
  newestSummaryMs: number,
  nowMs: number,
  recentMs: number,
): boolean {
  const since = Math.max(newestSummaryMs, nowMs - recentMs);
  const fresh = (dir: string, name: string): boolean => {
    try {
      return lstatSync(join(dir, name)).mtimeMs > since;
    } catch {
      return false;
    }
  };
  const { records, sessionsState: states } = layout(root);
  const pauseLog = (n: string) => {
    const sid = STATE_NAMES.pauseLogSession(n);
    return sid !== undefined && sid !== exceptSession;
  };
  if (listDir(records).some((n) => pauseLog(n) && fresh(records, n))) return true;
  return listDir(states).some(
    (n) => n.endsWith(".json") && n !== `${exceptSession}.json` && fresh(states, n) && endedPaused(join(states, n)),
  );
}

// --- internal ---

function endedPaused(path: string): boolean {
  const r = readJsonFile<Record<string, unknown>>(path, { maxBytes: 4 * 1024 * 1024 });
  return r.status === "ok" && !!r.value && r.value.auto_pause_active === true && r.value.last_event === "SessionEnd";
}
