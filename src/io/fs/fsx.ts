import { basename, dirname, join } from "../../core/pathx.ts";
import { sys, SysError, type Stat } from "./sys.ts";

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
  const s = sys();
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fd = s.openExclusive(tmp, mode);
  try {
    s.writeAll(fd, typeof data === "string" ? Buffer.from(data) : data);
    s.fsync(fd);
  } catch (err) {
    s.close(fd);
    unlinkQuiet(tmp);
    throw err;
  }
  s.close(fd);
  try {
    s.rename(tmp, path);
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

/**
 * Creates a directory and its parents (mode 0700 for new ones); fine if it
 * exists as a real directory. A symlink or anything else at `dir` is refused
 * (ENOTDIR): ctx never writes through a link planted at a state directory.
 * A directory inside a project's `.ctx/` also gets `.ctx/.gitignore` (see {@link ensureStateIgnore}).
 */
export function ensureDir(dir: string, mode = 0o700): void {
  makeDir(dir, mode);
  const root = ctxRootOf(dir);
  if (root !== undefined) ensureStateIgnore(root);
}

/**
 * Writes `<root>/.gitignore` holding `*` when it is missing, so ctx's state never lands in the
 * user's git history (as pytest and ruff do for their caches). Never replaces an existing file,
 * never follows a link, and never fails: a read-only directory simply stays without one.
 */
export function ensureStateIgnore(root: string): void {
  let fd: number;
  try {
    fd = sys().openExclusive(join(root, ".gitignore"), 0o644);
  } catch {
    return; // there already (EEXIST), or not writable
  }
  try {
    sys().writeAll(fd, Buffer.from(STATE_IGNORE));
  } catch {
    // a short file is still better than none
  } finally {
    closeQuiet(fd);
  }
}

/** The text of `.ctx/.gitignore`. */
export const STATE_IGNORE = "# Written by ctx: its state stays out of git.\n*\n";

function makeDir(dir: string, mode: number): void {
  try {
    sys().mkdir(dir, mode);
  } catch (err) {
    const code = (err as SysError).code;
    if (code === "EEXIST") return requireRealDir(dir);
    if (code !== "ENOENT" || dirname(dir) === dir) throw err;
    makeDir(dirname(dir), mode);
    try {
      sys().mkdir(dir, mode);
    } catch (again) {
      if ((again as SysError).code !== "EEXIST") throw again;
      requireRealDir(dir);
    }
  }
}

/**
 * Creates `root/sub` level by level (see ensureDir), checking the root and
 * every level under it: a symlink at any of them is refused (ENOTDIR).
 * The directories above `root` are the user's and may be links.
 */
export function ensureDirUnder(root: string, sub = ""): string {
  ensureDir(root);
  let dir = root;
  for (const part of sub.split("/").filter((p) => p !== "")) {
    dir = join(dir, part);
    ensureDir(dir);
  }
  return dir;
}

/**
 * True when `root` and each level of `sub` under it is a real directory or
 * missing (nothing to read there, nothing followed); false when any is a
 * symlink or not a directory. (`lstat` lets a caller that has node:fs loaded
 * already skip loading the libc layer.)
 */
export function realDirsUnder(
  root: string,
  sub = "",
  lstat: (path: string) => Pick<Stat, "isSymlink" | "isDirectory"> = (p) => sys().lstat(p),
): boolean {
  let dir = root;
  for (const part of ["", ...sub.split("/").filter((p) => p !== "")]) {
    dir = part ? join(dir, part) : dir;
    let st: Pick<Stat, "isSymlink" | "isDirectory">;
    try {
      st = lstat(dir);
    } catch {
      return true; // missing (or unreachable): nothing below it is read or written
    }
    if (st.isSymlink || !st.isDirectory) return false;
  }
  return true;
}

/**
 * Opens `path` for appending (0600 when created) without following a symlink or
 * blocking on a FIFO, and only when it is a regular file (else EINVAL/ELOOP/…).
 * The caller closes the descriptor.
 */
export function openAppendFile(path: string, mode = 0o600): number {
  const fd = sys().openAppend(path, mode);
  let st: Stat;
  try {
    st = sys().fstat(fd);
  } catch (err) {
    closeQuiet(fd);
    throw err;
  }
  if (!st.isFile) {
    closeQuiet(fd);
    throw new SysError("EINVAL", "open (not a regular file)", path);
  }
  return fd;
}

/** The `…/.ctx` directory `dir` is or lies in (the innermost one), or undefined. */
function ctxRootOf(dir: string): string | undefined {
  const at = `${dir}/`.lastIndexOf("/.ctx/");
  return at < 0 ? undefined : dir.slice(0, at + 5);
}

/** Creates a new empty file (never through a symlink); throws EEXIST when it is there already. */
export function createNew(path: string, mode = 0o600): void {
  sys().close(sys().openExclusive(path, mode));
}

/**
 * Creates `path` exclusively (O_EXCL, never through a symlink) holding `content`: false when
 * something is there already. A write that fails (a full disk) removes the file before throwing,
 * so no empty or partial file is left to be mistaken for a complete one.
 */
export function createExclusive(path: string, content: string, mode = 0o600): boolean {
  let fd: number;
  try {
    fd = sys().openExclusive(path, mode);
  } catch (err) {
    if ((err as SysError).code === "EEXIST") return false;
    throw err;
  }
  try {
    sys().writeAll(fd, Buffer.from(content));
  } catch (err) {
    closeQuiet(fd);
    unlinkQuiet(path);
    throw err;
  }
  closeQuiet(fd);
  return true;
}

/** Removes a file, ignoring every error. */
export function unlinkQuiet(path: string): void {
  try {
    sys().unlink(path);
  } catch {
    // already gone, or not ours to remove
  }
}

/** Closes a descriptor, ignoring errors. */
export function closeQuiet(fd: number): void {
  try {
    sys().close(fd);
  } catch {
    // nothing useful to do
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

// --- internal ---

/** Throws ENOTDIR unless `dir` is a real directory (not a symlink to one). */
function requireRealDir(dir: string): void {
  const st = sys().lstat(dir);
  if (st.isSymlink || !st.isDirectory) throw new SysError("ENOTDIR", "mkdir", dir);
}
