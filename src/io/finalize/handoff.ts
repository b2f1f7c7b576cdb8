/**
 * Reading where the handoff of a CRITICAL crossing stands (hot path: sys and the safe reads only, no node:fs),
 * and recording a background finalize that failed, so the next message can say so.
 */
import type { Deps } from "../../core/deps.ts";
import type { Handoff } from "../../core/handoff.ts";
import { asObject } from "../../core/json.ts";
import { layout } from "../../core/layout.ts";
import { lockState } from "../fs/lock.ts";
import { readFileSafe } from "../fs/read.ts";
import { sys } from "../fs/sys.ts";
import { writeFileAtomic } from "../fs/write.ts";

/**
 * A finalize started this long ago that holds no lock and wrote no summary has failed even when it
 * could not say so (a full disk refuses the note too): it takes its lock within milliseconds of starting.
 */
export const HANDOFF_GRACE_MS = 20_000;

/** A marker whose mtime is before this (set to 1 s after the epoch) says its finalize failed without a note. */
const FAILED_MTIME_MS = 60_000;

/** How long a finalize lock counts as held (finalize's own staleMs, io/finalize/pending.ts FINALIZE_LOCK). */
const LOCK_STALE_MS = 300_000;

/**
 * The handoff of `sessionId`'s current crossing, judged from the crossing's marker
 * (`state/monitor/<sid>.finalize`, made when its finalize was started), the finalize lock,
 * the session state's `finalized_at`/`finalized_stamp` and the summary file itself.
 * No marker yet means the caller is about to start it: "writing".
 */
export function handoffOf(root: string, sessionId: string, nowMs: number): Handoff {
  const files = layout(root);
  const marker = files.finalizeMarker(sessionId);
  const started = marker ? mtimeOf(marker) : undefined;
  if (started === undefined) return { state: "writing" };
  const state = asObject(parse(readFileSafe(files.stateFile(sessionId) ?? "", { maxBytes: 4 * 1024 * 1024 })));
  const at = typeof state?.finalized_at === "string" ? Date.parse(state.finalized_at) : Number.NaN;
  const stamp = state?.finalized_stamp;
  const task = state?.task_id;
  // finalized_at is the finalize's own clock, the marker's mtime the file system's: allow a second between them.
  if (at >= started - 1000 && typeof stamp === "string" && typeof task === "string") {
    const path = files.summary(task, stamp);
    if (isFile(path)) return { state: "written", path };
  }
  const note = asObject(parse(readFileSafe(marker!, { maxBytes: 4096 })));
  // the stamp the crossing planned (io/finalize/spawn.ts): the path the summary is being written to
  const planned = typeof note?.stamp === "string" && /^\d{8}-\d{6}$/.test(note.stamp) ? note.stamp : undefined;
  const writing: Handoff =
    planned && typeof task === "string"
      ? { state: "writing", path: files.summary(task, planned) }
      : { state: "writing" };
  // A live finalize holds its lock (a killed one's lock is stale: nothing is coming from it).
  const lock = files.finalizeLock(sessionId);
  if (lock && lockState(lock, LOCK_STALE_MS, () => nowMs) === "held") return writing;
  if (typeof note?.error === "string") return { state: "failed", reason: note.error.slice(0, 200) };
  // A marker dated 1970: the finalize failed and could not write why here (a full disk); errors.log may have it.
  if (started < FAILED_MTIME_MS) return { state: "failed", reason: "ctx finalize failed; 'ctx doctor' shows why" };
  if (nowMs - started > HANDOFF_GRACE_MS) return { state: "failed", reason: "ctx finalize did not finish" };
  return writing;
}

/** How long a reader waits for the hook that just made the crossing's marker to write its planned stamp into it. */
const PLAN_WAIT_MS = 1500;

/**
 * {@link handoffOf}, once the crossing's marker holds its plan. The marker is made empty (exclusively) and the
 * planned stamp written into it right after; the monitor and track run side by side on one tool call, and the
 * one that did not make the marker could read it empty in between (seen on a loaded machine: the user's
 * CRITICAL message then named no summary). Only an empty marker younger than the wait is waited for.
 */
export async function settledHandoffOf(root: string, sessionId: string, now: () => number): Promise<Handoff> {
  const marker = layout(root).finalizeMarker(sessionId);
  // the wall clock, as the marker's mtime is (`now` may be a session's own clock)
  const start = Date.now();
  while (marker && Date.now() - start < PLAN_WAIT_MS) {
    const st = statOf(marker);
    if (!st || st.size > 0 || Date.now() - st.mtimeMs > PLAN_WAIT_MS) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return handoffOf(root, sessionId, now());
}

/**
 * Notes why a finalize failed: in the crossing's marker (when one exists: a finalize started at CRITICAL),
 * read back by {@link handoffOf}, and in the hook error log for `ctx doctor`. Never throws.
 */
async function recordHandoffFailure(deps: Deps, root: string, sessionId: string, err: unknown): Promise<void> {
  const reason = ((err as Error)?.message ?? String(err)).replace(/\s+/g, " ").slice(0, 200);
  const marker = layout(root).finalizeMarker(sessionId);
  if (marker && mtimeOf(marker) !== undefined) {
    try {
      writeFileAtomic(marker, `${JSON.stringify({ error: reason })}\n`);
    } catch {
      // A full disk refuses the note: date the marker 1970 instead (no block needed), which handoffOf reads as failed.
      await import("node:fs").then((fs) => fs.lutimesSync(marker, 1, 1)).catch(() => {});
    }
  }
  await import("../error-log.ts").then((m) => m.recordHookError(deps, "finalize", err)).catch(() => {});
}

/** Runs a finalize; when it throws and `noted` is given (a background finalize), records why first. */
export async function notingFailure<T>(
  noted: { deps: Deps; root: string; sessionId: string } | undefined,
  fn: () => T,
): Promise<T> {
  try {
    return fn();
  } catch (err) {
    if (noted) await recordHandoffFailure(noted.deps, noted.root, noted.sessionId, err);
    throw err;
  }
}

// --- internal ---

function mtimeOf(path: string): number | undefined {
  return statOf(path)?.mtimeMs;
}

function statOf(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    const st = sys().lstat(path);
    return st.isFile ? { mtimeMs: st.mtimeMs, size: st.size } : undefined;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  return mtimeOf(path) !== undefined;
}

function parse(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
