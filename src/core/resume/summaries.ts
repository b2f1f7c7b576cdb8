/**
 * Handoff summaries on disk are `<root>/sessions/summary-<task_id>-<YYYYMMDD-HHMMSS>.md`
 * (written by `ctx finalize`). This module orders them, without any I/O.
 */

import { FUTURE_SLACK_MS, plausibleMs } from "../plausible.ts";

/** One summary file found in a project's sessions directory. */
export interface SummaryFile {
  /** File name, e.g. `summary-task-1-20250101-120000.md`. */
  name: string;
  /** Absolute path. */
  path: string;
  /** Modification time in ms since the epoch. */
  mtimeMs: number;
}

const NAME = /^summary-.+\.md$/;
const STAMP = /-(\d{8})-(\d{6})\.md$/;

/** True for a file name that looks like a handoff summary. */
export function isSummaryName(name: string): boolean {
  return NAME.test(name) && !name.includes("/");
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
  const primary = (f: SummaryFile) => {
    const st = stampMs(f.name);
    if (st === undefined) return 0; // unstamped names rank below stamped ones
    return st <= nowMs + FUTURE_SLACK_MS ? Math.min(st, nowMs) : plausibleMs(nowMs, f.mtimeMs);
  };
  return [...files].sort((a, b) => {
    const ka = primary(a);
    const kb = primary(b);
    if (ka !== kb) return kb - ka;
    const ma = plausibleMs(nowMs, a.mtimeMs);
    const mb = plausibleMs(nowMs, b.mtimeMs);
    if (ma !== mb) return mb - ma;
    return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
  });
}
