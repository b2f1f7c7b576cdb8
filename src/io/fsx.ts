import { closeSync, constants, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_NONBLOCK } = constants;

/** Options for reading a file safely. */
export interface ReadOptions {
  /** Refuse files bigger than this (default 64 MiB). */
  maxBytes?: number;
  /** Refuse files not owned by this uid (for files in shared directories such as /tmp). */
  ownerUid?: number;
}

/**
 * Writes `data` atomically: a fresh temp file in the same directory (never
 * following a link), fsync, then rename over `path`. A symlink planted at
 * `path` is replaced, not followed.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fd = openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    const buf = typeof data === "string" ? Buffer.from(data) : data;
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuiet(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkQuiet(tmp);
    throw err;
  }
}

/** Writes JSON (two-space indent, trailing newline) atomically, creating parent directories. */
export function writeJsonAtomic(path: string, value: unknown, mode = 0o600): void {
  ensureDir(dirname(path));
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}

/**
 * Reads a regular file without following a symlink or blocking on a FIFO.
 * Returns undefined when it is missing, not a regular file, too big, or owned by someone else.
 */
export function readFileSafe(path: string, opts: ReadOptions = {}): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > (opts.maxBytes ?? 64 * 1024 * 1024)) return undefined;
    if (opts.ownerUid !== undefined && st.uid !== opts.ownerUid) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n <= 0) break;
      off += n;
    }
    return buf.toString("utf8", 0, off);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The outcome of reading a JSON state file. */
export type JsonRead<T> = { status: "ok"; value: T } | { status: "missing" } | { status: "corrupt"; text: string };

/** Reads and parses a JSON file safely (see readFileSafe). */
export function readJsonFile<T>(path: string, opts: ReadOptions = {}): JsonRead<T> {
  const text = readFileSafe(path, opts);
  if (text === undefined) return { status: "missing" };
  try {
    return { status: "ok", value: JSON.parse(text) as T };
  } catch {
    return { status: "corrupt", text };
  }
}

/** Creates a directory and its parents (mode 0700 for new ones); fine if it exists. */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Removes a file, ignoring every error. */
export function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone, or not ours to remove
  }
}

/** The current user's uid, or undefined where the platform has none. */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}
