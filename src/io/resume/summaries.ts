/** Finding and reading handoff summaries (`<root>/sessions/summary-*.md`). */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";
import { join, resolve } from "node:path";
import { CtxError } from "../../core/deps.ts";
import { hasContent } from "../../core/resume/prompt.ts";
import { isSummaryName, newestFirst, type SummaryFile } from "../../core/resume/summaries.ts";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { fileIn } from "../../core/paths.ts";
import { readFileSafe } from "../fs/read.ts";
import { realDirsUnder } from "../fs/dirs.ts";
import { listDir } from "../fs/list-dir.ts";
import type { Env } from "../../core/deps.ts";
import { readWrittenTwin } from "../written.ts";

/**
 * Summaries are meant to be short (about 2,000 tokens). Anything past this cap
 * is refused: it would not fit in one command-line argument (Linux allows 128 KiB).
 */
const SUMMARY_MAX_BYTES = 100 * 1024;

/** Every regular (non-symlink) summary file of a state root, unordered; none when the directory is missing. */
export function listSummaries(root: string): SummaryFile[] {
  const dir = layout(root).records;
  if (!realDirsUnder(root, STATE_DIRS.records, nodeLstat)) return []; // a symlinked .ctx or sessions: not this project's
  const out: SummaryFile[] = [];
  for (const name of listDir(dir)) {
    if (!isSummaryName(name)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (st.isFile()) out.push({ name, path, mtimeMs: st.mtimeMs });
    } catch {
      // removed while listing
    }
  }
  return out;
}

/** lstat through node:fs (loaded here anyway), as realDirsUnder wants it. */
function nodeLstat(path: string): { isSymlink: boolean; isDirectory: boolean; uid: number; perm: number } {
  const st = lstatSync(path);
  return { isSymlink: st.isSymbolicLink(), isDirectory: st.isDirectory(), uid: st.uid, perm: st.mode & 0o7777 };
}

/** Reads a summary for a hook: no symlinks, no FIFOs, size-capped; undefined on any problem. */
function readSummarySafe(path: string): string | undefined {
  return readFileSafe(path, { maxBytes: SUMMARY_MAX_BYTES });
}

/**
 * Reads a summary for a hook only when `path` names a summary file directly in
 * the project's own `<root>/sessions/` (no symlinked directory on the way, the
 * file itself regular): a path read out of a state file can point nowhere else.
 */
export function readSummaryIn(root: string, path: string): string | undefined {
  const name = fileIn(resolve(layout(root).records), resolve(path));
  if (!name || !isSummaryName(name) || !realDirsUnder(root, STATE_DIRS.records)) return undefined;
  return readSummarySafe(path);
}

/**
 * The ids of the open tasks in the twin of a summary in the project's own `<root>/sessions/`
 * (checked like readSummaryIn): ctx's own record of the client's task tools, the only source of
 * tasks a fresh session is asked to re-create. None when the twin is missing, not valid, or not
 * as ctx wrote it (io/written.ts).
 */
export function openTaskIdsIn(env: Env, root: string, path: string): string[] {
  const name = fileIn(resolve(layout(root).records), resolve(path));
  if (!name || !isSummaryName(name) || !realDirsUnder(root, STATE_DIRS.records)) return [];
  // A plan kept in the agent's messages (list `plan`) is no task list's: never re-created with a task tool.
  return (
    readWrittenTwin(env, path)
      ?.open_tasks.filter((t) => t.list !== "plan")
      .map((t) => t.id) ?? []
  );
}

/**
 * The newest summary of a state root at `nowMs` (see newestFirst) whose text `accept`s (ctx wrote
 * it: io/written.ts), or a CtxError explaining that there is none, and how many were passed over.
 */
export function latestSummary(
  root: string,
  nowMs: number,
  accept: (text: string) => boolean = () => true,
): SummaryFile {
  const all = newestFirst(listSummaries(root), nowMs);
  const newest = all.find((f) => {
    const text = readSummarySafe(f.path);
    return text !== undefined && accept(text);
  });
  if (!newest) {
    throw new CtxError(
      1,
      all.length === 0
        ? `no summary found in ${layout(root).records}`
        : `no summary written by ctx found in ${layout(root).records} (${all.length} other file(s) ignored: ctx resumes only the summaries it wrote for you)`,
      "summaries are written by 'ctx finalize' (automatically when a session nears its limit); run it by hand or give a file",
    );
  }
  return newest;
}

/**
 * Reads a summary the user named, resolved against `cwd`. A missing, unreadable,
 * empty or oversized file is a CtxError (exit 1) with a hint, never an empty prompt.
 * Only a regular file is read (a device, a FIFO or a socket is refused: the open
 * never blocks), and never more than SUMMARY_MAX_BYTES + 1 bytes, whatever stat says.
 */
export function loadSummaryForCli(file: string, cwd: string): { path: string; text: string } {
  const path = resolve(cwd, file);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new CtxError(
        1,
        `summary not found: ${path}`,
        "list them with 'ls .ctx/sessions/summary-*.md', or use --latest",
      );
    throw new CtxError(
      1,
      `cannot read summary ${path}: ${code ?? (err as Error).message}`,
      "check the file's permissions",
    );
  }
  let bytes: Buffer;
  try {
    const st = fstatSync(fd);
    if (st.isDirectory())
      throw new CtxError(1, `${path} is a directory, not a summary file`, "give a summary-*.md file, or use --latest");
    if (!st.isFile())
      throw new CtxError(
        1,
        `${path} is not a regular file (a device, FIFO or socket)`,
        "give a summary-*.md file, or use --latest",
      );
    bytes = readCapped(fd, SUMMARY_MAX_BYTES + 1);
  } catch (err) {
    if (err instanceof CtxError) throw err;
    throw new CtxError(
      1,
      `cannot read summary ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      "check the file's permissions",
    );
  } finally {
    closeSync(fd);
  }
  if (bytes.length > SUMMARY_MAX_BYTES) {
    throw new CtxError(
      1,
      `summary too large: ${path} is over ${SUMMARY_MAX_BYTES} bytes`,
      "shorten it, or pass it to the agent as a file to read",
    );
  }
  const text = bytes.toString("utf8");
  if (!hasContent(text))
    throw new CtxError(1, `summary is empty: ${path}`, "re-run 'ctx finalize' to write it again, or pick another one");
  return { path, text };
}

/** Reads at most `max` bytes from `fd` (a file that grows, or lies in stat, cannot make it read more). */
function readCapped(fd: number, max: number): Buffer {
  const buf = Buffer.alloc(max);
  let off = 0;
  while (off < max) {
    const n = readSync(fd, buf, off, max - off, null);
    if (n <= 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

/** How many sessions the twin of a summary in `<root>/sessions/` covers (checked like readSummaryIn, and as ctx wrote it); 0 when unknown. */
export function sessionsIn(env: Env, root: string, path: string): number {
  const name = fileIn(resolve(layout(root).records), resolve(path));
  if (!name || !isSummaryName(name) || !realDirsUnder(root, STATE_DIRS.records)) return 0;
  return readWrittenTwin(env, path)?.sessions.length ?? 0;
}
