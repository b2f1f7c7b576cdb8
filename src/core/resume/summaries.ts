/**
 * Handoff summaries on disk are `<root>/sessions/summary-<task_id>-<YYYYMMDD-HHMMSS>.md`
 * (written by `ctx finalize`). This module orders them, without any I/O.
 */

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

/**
 * Newest first: by the stamp in the name (finalize rewrites a summary in place,
 * which must not make an old one "newest"), then by modification time, then by name.
 */
export function newestFirst(files: readonly SummaryFile[]): SummaryFile[] {
  return [...files].sort((a, b) => {
    const sa = stampOf(a.name);
    const sb = stampOf(b.name);
    if (sa !== sb) return sa < sb ? 1 : -1;
    if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
    return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
  });
}
