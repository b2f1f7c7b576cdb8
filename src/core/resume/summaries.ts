/**
 * Handoff summaries on disk are `<root>/sessions/summary-<task_id>-<YYYYMMDD-HHMMSS>.md`
 * (written by `ctx finalize`). This module orders them, without any I/O.
 */

import { FUTURE_SLACK_MS, plausibleMs } from "../plausible.ts";
import { STATE_NAMES } from "../layout.ts";

/** One summary file found in a project's sessions directory. */
export interface SummaryFile {
  /** File name, e.g. `summary-task-1-20250101-120000.md`. */
  name: string;
  /** Absolute path. */
  path: string;
  /** Modification time in ms since the epoch. */
  mtimeMs: number;
}

const STAMP = /-(\d{8})-(\d{6})\.md$/;

/** True for a file name that looks like a handoff summary. */
export function isSummaryName(name: string): boolean {
  return STATE_NAMES.isSummary(name) && !name.includes("/");
}

/** The `YYYYMMDDHHMMSS` stamp of a summary name, or "" when it has none. */
export function stampOf(name: string): string {
  const m = STAMP.exec(name);
  return m ? `${m[1]}${m[2]}` : "";
}

/** The stamp of a summary name as ms since the epoch (the stamp is UTC), or undefined. */
function stampMs(name: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(stampOf(name));
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const ms = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Newest first: by the stamp in the name (finalize rewrites a summary in place,
 * which must not make an old one "newest"), then by modification time, then by
 * name. Times are taken as plausible at `nowMs` (plausibleMs): a stamp up to a
 * few minutes ahead counts as now; one further in the future (written while the
 * clock was ahead, or planted) gives way to the file's mtime, and a future
 * mtime to nothing, so such a summary never hides every later one.
 */
export function newestFirst(files: readonly SummaryFile[], nowMs: number): SummaryFile[] {
  // Each key is computed once per file (a sort compares each file about log n times).
  const keyed = files.map((f) => {
    const st = stampMs(f.name);
    const mtime = plausibleMs(nowMs, f.mtimeMs);
    // Unstamped names rank below stamped ones.
    const primary = st === undefined ? 0 : st <= nowMs + FUTURE_SLACK_MS ? Math.min(st, nowMs) : mtime;
    return { f, primary, mtime };
  });
  keyed.sort((a, b) => {
    if (a.primary !== b.primary) return b.primary - a.primary;
    if (a.mtime !== b.mtime) return b.mtime - a.mtime;
    return a.f.name < b.f.name ? 1 : a.f.name > b.f.name ? -1 : 0;
  });
  return keyed.map((k) => k.f);
}
