/**
 * `ctx prune`'s work on one project's state root (docs/state.md, "Retention"): the plan of
 * core/retention.ts applied to the session states and summaries, and the files named after them
 * or aged out. Only regular files of ours, in real directories (never through a symlink).
 */
import { join } from "node:path";
import type { Env } from "../../core/deps.ts";
import { layout, STATE_DIRS, STATE_NAMES } from "../../core/layout.ts";
import { isSummaryName, stampOf } from "../../core/resume/summaries.ts";
import {
  expired,
  planRetention,
  recordNamesOf,
  type RetainedSession,
  type RetentionLimits,
} from "../../core/retention.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { parseRecord } from "../../core/respawn/record.ts";
import { twinPathOf } from "../../core/summary/twin.ts";
import { realDirsUnder } from "../fs/dirs.ts";
import { listDir } from "../fs/list-dir.ts";
import { pidAlive, withLock } from "../fs/lock.ts";
import { readJsonFile } from "../fs/read.ts";
import type { SysError } from "../fs/sys.ts";
import { sweepStateTemps } from "../fs/sweep.ts";
import { emptyCounts, lockOwnerAlive, regularStat, removeOurs, type PruneCounts } from "./remove.ts";

/** Prunes the project at state root `root`; with `dry`, only counts. */
export function pruneProject(
  env: Env,
  root: string,
  limits: RetentionLimits,
  nowMs: number,
  dry: boolean,
): PruneCounts {
  const counts = emptyCounts();
  if (!realDirsUnder(root)) return counts; // a symlinked .ctx is not ours to prune
  const files = layout(root);
  const seen = new Map<string, number>(); // each session state's mtime when the plan was made
  const sessions = sessionsOf(root, nowMs, seen);
  const summaries = summariesOf(root);
  const plan = planRetention(sessions, summaries, nowMs, limits);
  const dropped = new Set(plan.sessions);
  const kept = new Set(sessions.filter((s) => !dropped.has(s.id)).map((s) => s.id));
  const rm = (dir: string, sub: string, name: string, old: boolean): boolean =>
    realDirsUnder(root, sub) && removeOurs(join(dir, name), old ? nowMs : undefined, limits.maxAgeMs, dry);
  // Per-session files: the session's state, its lock, its monitor, window and git-start files.
  for (const [dir, sub] of [
    [files.sessionsState, STATE_DIRS.sessionsState],
    [files.monitor, STATE_DIRS.monitor],
    [files.window, STATE_DIRS.window],
    [files.gitStart, STATE_DIRS.gitStart],
  ] as const) {
    for (const name of listDir(dir)) {
      const sid = name.split(".")[0] ?? "";
      if (!isValidSessionId(sid) || kept.has(sid)) continue;
      if (name.endsWith(".lock")) {
        if (!lockOwnerAlive(join(dir, name)) && rm(dir, sub, name, true)) counts.files++;
        continue;
      }
      // A dropped session's state goes whatever its file's time; everything else only once aged out.
      const now = dropped.has(sid) && name === `${sid}.json` && dir === files.sessionsState;
      // Under the session's lock, checked again: a state written since the plan (its mtime moved) stays.
      const removed = dry
        ? rm(dir, sub, name, !now)
        : underSessionLock(files.stateFile(sid), () =>
            now && regularStat(join(dir, name))?.mtimeMs !== seen.get(sid) ? false : rm(dir, sub, name, !now),
          );
      if (removed) dir === files.sessionsState && name === `${sid}.json` ? counts.sessions++ : counts.files++;
    }
  }
  // Summaries with their twin and session record; records without a summary, pause logs, once aged out.
  const keptStamps = new Set(summaries.filter((f) => !plan.summaries.includes(f.name)).map((f) => stampOf(f.name)));
  for (const name of plan.summaries) {
    if (rm(files.records, STATE_DIRS.records, name, false)) counts.summaries++;
    rm(files.records, STATE_DIRS.records, twinPathOf(name), false);
    for (const r of recordNamesOf(name)) if (rm(files.records, STATE_DIRS.records, r, false)) counts.records++;
  }
  for (const name of listDir(files.records)) {
    const record = STATE_NAMES.recordStamp(name);
    const pause = STATE_NAMES.pauseLogSession(name);
    if (record && !keptStamps.has(record)) {
      if (rm(files.records, STATE_DIRS.records, name, true)) counts.records++;
    } else if (pause && !kept.has(pause) && rm(files.records, STATE_DIRS.records, name, true)) counts.files++;
  }
  for (const name of listDir(files.events))
    if (STATE_NAMES.isCompaction(name) && rm(files.events, STATE_DIRS.events, name, true)) counts.files++;
  counts.files += pruneSupervisors(root, nowMs, limits, dry);
  // Locks left by killed processes in the state folder and the root.
  for (const [dir, sub] of [
    [files.state, STATE_DIRS.state],
    [root, ""],
  ] as const)
    for (const name of listDir(dir))
      if (name.endsWith(".lock") && !lockOwnerAlive(join(dir, name)) && rm(dir, sub, name, true)) counts.files++;
  if (!dry) sweepStateTemps(env, root, nowMs);
  return counts;
}

// --- internal ---

/**
 * Runs `fn` holding the session's lock (`<state>.lock`, the one its writers take), false when the
 * lock is not had within `SESSION_LOCK_MS`: a session being written is left for the next prune.
 */
function underSessionLock(statePath: string | undefined, fn: () => boolean): boolean {
  if (!statePath) return false;
  try {
    return withLock(`${statePath}.lock`, fn, { timeoutMs: SESSION_LOCK_MS });
  } catch (err) {
    // No sessions directory: no writer holds a lock there (each makes the directory first).
    return (err as SysError).code === "ENOENT" ? fn() : false;
  }
}

/** How long prune waits for one session's lock. */
const SESSION_LOCK_MS = 1000;

/**
 * Every session state of the root, as retention sees it; an unreadable one counts as ended, at its
 * file's time. Each state file's mtime goes into `seen` (prune checks it again before removing).
 */
function sessionsOf(root: string, nowMs: number, seen: Map<string, number>): RetainedSession[] {
  const dir = layout(root).sessionsState;
  if (!realDirsUnder(root, STATE_DIRS.sessionsState)) return [];
  const out: RetainedSession[] = [];
  for (const name of listDir(dir)) {
    const id = name.endsWith(".json") ? name.slice(0, -5) : "";
    if (!isValidSessionId(id)) continue;
    const path = join(dir, name);
    const mtime = statMtime(path);
    if (mtime === undefined) continue;
    seen.set(id, mtime);
    const r = readJsonFile<Record<string, unknown>>(path, { maxBytes: 4 * 1024 * 1024 });
    const s = r.status === "ok" && r.value && typeof r.value === "object" ? r.value : {};
    const updated = typeof s.updated_at === "string" ? Date.parse(s.updated_at) : Number.NaN;
    const pid = typeof s.claude_pid === "number" && Number.isInteger(s.claude_pid) ? s.claude_pid : 0;
    const next = s.next_session_id;
    out.push({
      id,
      task: typeof s.task_id === "string" ? s.task_id : "",
      // The later of the two, and now at most: a time from the future never ages.
      updatedMs: Math.min(nowMs, Math.max(Number.isFinite(updated) ? updated : 0, mtime)),
      ended: r.status !== "ok" || s.last_event === "SessionEnd" || (typeof next === "string" && next !== ""),
      alive: pid > 1 && pidAlive(pid),
    });
  }
  return out;
}

/** The summaries of the root with their mtimes. */
function summariesOf(root: string): { name: string; mtimeMs: number }[] {
  if (!realDirsUnder(root, STATE_DIRS.records)) return [];
  const dir = layout(root).records;
  const out: { name: string; mtimeMs: number }[] = [];
  for (const name of listDir(dir)) {
    if (!isSummaryName(name)) continue;
    const m = statMtime(join(dir, name));
    if (m !== undefined) out.push({ name, mtimeMs: m });
  }
  return out;
}

/** Records and logs of supervisors that stopped (or whose process is gone) and aged out. */
function pruneSupervisors(root: string, nowMs: number, limits: RetentionLimits, dry: boolean): number {
  const dir = layout(root).respawn;
  if (!realDirsUnder(root, STATE_DIRS.respawn)) return 0;
  let n = 0;
  const names = listDir(dir);
  for (const name of names) {
    const m = /^(.+)\.(json|log)$/.exec(name);
    if (!m) continue;
    const record = join(dir, `${m[1]}.json`);
    const r = readJsonFile<unknown>(record, { maxBytes: 4 * 1024 * 1024 });
    const rec = r.status === "ok" ? parseRecord(r.value) : undefined;
    const running = rec !== undefined && rec.phase !== "stopped" && rec.pid > 0 && pidAlive(rec.pid);
    const mtime = statMtime(join(dir, name));
    if (running || mtime === undefined || !expired(mtime, nowMs, limits.maxAgeMs)) continue;
    if (removeOurs(join(dir, name), nowMs, limits.maxAgeMs, dry)) n++;
  }
  return n;
}

/** A file's mtime (lstat), undefined when it is missing or not a regular file. */
function statMtime(path: string): number | undefined {
  return regularStat(path)?.mtimeMs;
}
