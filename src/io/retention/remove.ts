/**
 * Removing what retention gives up, safely: only a regular file (never a symlink, a directory or
 * a FIFO), owned by this user, and only when it is as old as the caller says. Also the per-user
 * part of `ctx prune`: index entries and bridge files (docs/state.md, "Retention").
 */
import { lstatSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../core/deps.ts";
import { INDEX_DIR, layout, STATE_NAMES, userLayout } from "../../core/layout.ts";
import { fileIn } from "../../core/paths.ts";
import { expired, type RetentionLimits } from "../../core/retention.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { realDirsUnder } from "../fs/dirs.ts";
import { listDir } from "../fs/list-dir.ts";
import { pidAlive } from "../fs/lock.ts";
import { readFileSafe, readJsonFile } from "../fs/read.ts";
import { pruneWritten } from "./written.ts";
import { parseIndexEntry } from "../../core/status/entry.ts";
import { stateGone } from "../session/index.ts";

/** What one prune removed (or, dry, would remove). */
export interface PruneCounts {
  /** Session states. */
  sessions: number;
  /** Summaries (each with its twin). */
  summaries: number;
  /** Session record files (`session-<stamp>.*`). */
  records: number;
  /** Per-user index entries. */
  index: number;
  /** Bridge files in the temp directory. */
  bridges: number;
  /** Everything else: monitor, window and git-start files, pause logs, events, supervisor records, stale locks. */
  files: number;
}

/** All zero. */
export function emptyCounts(): PruneCounts {
  return { sessions: 0, summaries: 0, records: 0, index: 0, bridges: 0, files: 0 };
}

/** lstat of a regular file of this user, else undefined. */
export function regularStat(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    const st = lstatSync(path);
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    if (!st.isFile() || (uid !== undefined && st.uid !== uid)) return undefined;
    return { mtimeMs: st.mtimeMs, size: st.size };
  } catch {
    return undefined;
  }
}

/**
 * Removes `path` when it is a regular file of ours and, given `nowMs`, aged past `maxAgeMs` by its
 * mtime; with `dry`, only says it would. True when removed (or removable).
 */
export function removeOurs(path: string, nowMs: number | undefined, maxAgeMs: number | false, dry: boolean): boolean {
  const st = regularStat(path);
  if (!st || (nowMs !== undefined && !expired(st.mtimeMs, nowMs, maxAgeMs))) return false;
  if (dry) return true;
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false; // gone already
  }
}

/** True when the lock file names a process that still runs (`<pid> <ms> <nonce>`). */
export function lockOwnerAlive(path: string): boolean {
  const pid = Number((readFileSafe(path, { maxBytes: 4096 }) ?? "").split(" ")[0]);
  return Number.isInteger(pid) && pid > 1 && pidAlive(pid);
}

/**
 * The per-user part: index entries aged out whose session is not live (its state gone, ended,
 * or its process gone), their locks, bridge files aged out, and the `written/` records whose
 * summary or twin is gone (io/retention/written.ts; `root` is the project pruned).
 */
export function pruneUser(
  env: Env,
  limits: RetentionLimits,
  nowMs: number,
  dry: boolean,
  counts: PruneCounts,
  root?: string,
): void {
  const user = userLayout(env);
  if (realDirsUnder(user.dir, INDEX_DIR))
    for (const name of listDir(user.index)) {
      const sid = name.split(".")[0] ?? "";
      const path = join(user.index, name);
      if (!isValidSessionId(sid)) continue;
      if (name === `${sid}.json`) {
        const st = regularStat(path);
        // a dead entry (its project's state gone) goes whatever its age; others when aged out and not live
        const dead = deadEntry(path);
        if (!st || (!dead && (!expired(st.mtimeMs, nowMs, limits.maxAgeMs) || liveEntry(path)))) continue;
        if (removeOurs(path, dead ? undefined : nowMs, limits.maxAgeMs, dry)) counts.index++;
      } else if (name.endsWith(".lock") && !lockOwnerAlive(path) && removeOurs(path, nowMs, limits.maxAgeMs, dry))
        counts.files++;
    }
  for (const name of listDir(user.tmp)) {
    const sid = STATE_NAMES.bridgeSession(name);
    if (sid && isValidSessionId(sid) && removeOurs(join(user.tmp, name), nowMs, limits.maxAgeMs, dry)) counts.bridges++;
  }
  if (root !== undefined) counts.files += pruneWritten(env, root, limits, nowMs, dry);
}

// --- internal ---

/** The entry's session can never report again: its state root or state file is gone (index.ts stateGone). */
function deadEntry(path: string): boolean {
  const r = readJsonFile<unknown>(path, { maxBytes: 256 * 1024 });
  const e = r.status === "ok" ? parseIndexEntry(r.value) : undefined;
  return e !== undefined && stateGone(e);
}

/** The entry's session state (only `<root>/state/sessions/<sid>.json`) says it is live: not ended, its process running. */
function liveEntry(path: string): boolean {
  const r = readJsonFile<Record<string, unknown>>(path, { maxBytes: 256 * 1024 });
  const e = r.status === "ok" && r.value && typeof r.value === "object" ? r.value : undefined;
  if (!e || typeof e.root !== "string" || !e.root.startsWith("/")) return false;
  if (fileIn(layout(e.root).sessionsState, e.state_path) !== `${e.session_id}.json`) return false;
  const s = readJsonFile<Record<string, unknown>>(e.state_path as string, { maxBytes: 4 * 1024 * 1024 });
  const v = s.status === "ok" && s.value && typeof s.value === "object" ? s.value : undefined;
  if (!v) return false;
  const pid = typeof v.claude_pid === "number" && Number.isInteger(v.claude_pid) ? v.claude_pid : 0;
  const next = v.next_session_id;
  const ended = v.last_event === "SessionEnd" || (typeof next === "string" && next !== "");
  return !ended && pid > 1 && pidAlive(pid);
}
