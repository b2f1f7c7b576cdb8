/**
 * Writes that never leave a partial file or follow a planted link: atomic replacement
 * (temp file, fsync, rename), exclusive creation, and appends to regular files only.
 */
import { basename, dirname, join } from "../../core/pathx.ts";
import { ensureDir } from "./dirs.ts";
import { closeQuiet, sys, SysError, type Stat, unlinkQuiet } from "./sys.ts";

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
  writeFileAtomic(path, jsonText(value), mode);
}

/** The text writeJsonAtomic writes for `value`: indented JSON and a newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
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
