/**
 * Safe reads: a file is opened without following a symlink or blocking on a FIFO, and read
 * only when it is a regular file under a size cap (and, when asked, owned by the given uid).
 */
import { closeQuiet, sys, type Stat } from "./sys.ts";

/** Options for reading a file safely. */
export interface ReadOptions {
  /** Refuse files bigger than this (default 64 MiB). */
  maxBytes?: number;
  /** Refuse files not owned by this uid (for files in shared directories such as /tmp). */
  ownerUid?: number;
}

/**
 * Reads a regular file without following a symlink or blocking on a FIFO.
 * Returns undefined when it is missing, not a regular file, too big, or owned by someone else.
 */
export function readFileSafe(path: string, opts: ReadOptions = {}): string | undefined {
  const buf = readBytesSafe(path, opts);
  return buf === undefined ? undefined : buf.toString("utf8");
}

/** Like readFileSafe, as bytes. */
export function readBytesSafe(path: string, opts: ReadOptions = {}): Buffer | undefined {
  return withReadFile(path, (fd, st) => {
    if (!st.isFile || st.size > (opts.maxBytes ?? 64 * 1024 * 1024)) return undefined;
    if (opts.ownerUid !== undefined && st.uid !== opts.ownerUid) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < st.size) {
      const n = sys().pread(fd, buf, off, st.size - off, off);
      if (n <= 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  });
}

/**
 * Reads a file whose size fstat does not tell (a /proc file reports 0) to its end,
 * at most `maxBytes`, without node:fs; undefined when it cannot be opened or read.
 */
export function readToEnd(path: string, maxBytes = 1024 * 1024): Buffer | undefined {
  return withReadFile(path, (fd) => {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < maxBytes) {
      const buf = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - total));
      const n = sys().pread(fd, buf, 0, buf.length, total);
      if (n <= 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
    }
    return Buffer.concat(chunks);
  });
}

/**
 * Opens `path` for reading without following a symlink or blocking on a FIFO,
 * hands `fn` the descriptor and its stat, and closes it. Any error gives undefined.
 */
export function withReadFile<T>(path: string, fn: (fd: number, st: Stat) => T): T | undefined {
  let fd: number;
  try {
    fd = sys().openRead(path);
  } catch {
    return undefined;
  }
  try {
    return fn(fd, sys().fstat(fd));
  } catch {
    return undefined;
  } finally {
    closeQuiet(fd);
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

/** The modification time of a file (not following a symlink) in ms, or undefined. */
export function mtimeMs(path: string): number | undefined {
  return withReadFile(path, (_fd, st) => st.mtimeMs);
}

/** The current user's uid, or undefined where the platform has none. */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}
