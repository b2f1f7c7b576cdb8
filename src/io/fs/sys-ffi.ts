import { dlopen, type Pointer, FFIType as T, ptr, read } from "bun:ffi";
import { SysError, type Stat, type Sys } from "./sys-types.ts";

// Linux open(2) flags; O_NOFOLLOW differs between x86 and arm.
const O_WRONLY = 0o1;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const O_APPEND = 0o2000;
const O_NONBLOCK = 0o4000;
const O_CLOEXEC = 0o2000000;
const O_NOFOLLOW = process.arch === "arm64" || process.arch === "arm" ? 0o100000 : 0o400000;
const AT_EMPTY_PATH = 0x1000;
const AT_FDCWD = -100;
const AT_SYMLINK_NOFOLLOW = 0x100;
const STATX_BASIC_STATS = 0x7ff;
const S_IFMT = 0o170000;
const POLLIN = 0x1;
const EINTR = 4;
const ERRNO: Record<number, string> = {
  1: "EPERM",
  2: "ENOENT",
  4: "EINTR",
  5: "EIO",
  6: "ENXIO",
  9: "EBADF",
  11: "EAGAIN",
  13: "EACCES",
  17: "EEXIST",
  20: "ENOTDIR",
  21: "EISDIR",
  22: "EINVAL",
  24: "EMFILE",
  28: "ENOSPC",
  30: "EROFS",
  36: "ENAMETOOLONG",
  40: "ELOOP",
  122: "EDQUOT",
};

/** The Linux implementation: glibc through bun:ffi (throws if glibc cannot be loaded). */
export function ffiSys(): Sys {
  const i = T.i32;
  const p = T.ptr;
  const { symbols: c } = dlopen("libc.so.6", {
    open: { args: [p, i, i], returns: i },
    pread: { args: [i, p, T.u64, T.i64], returns: T.i64 },
    write: { args: [i, p, T.u64], returns: T.i64 },
    fsync: { args: [i], returns: i },
    close: { args: [i], returns: i },
    rename: { args: [p, p], returns: i },
    unlink: { args: [p], returns: i },
    mkdir: { args: [p, i], returns: i },
    statx: { args: [i, p, i, i, p], returns: i },
    poll: { args: [p, T.u64, i], returns: i },
    read: { args: [i, p, T.u64], returns: T.i64 },
    realpath: { args: [p, p], returns: p },
    __errno_location: { args: [], returns: p },
  });
  const fail = (syscall: string, path?: string): never => {
    const errno = read.i32(c.__errno_location()!, 0);
    throw new SysError(ERRNO[errno] ?? `E${errno}`, syscall, path);
  };
  const check = (rc: number | bigint, syscall: string, path?: string): number =>
    Number(rc) < 0 ? fail(syscall, path) : Number(rc);
  const empty = cstr("");
  return {
    openRead: (path) => onPath(path, (p) => check(c.open(p, O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0), "open", path)),
    openExclusive: (path, mode) =>
      onPath(path, (p) => check(c.open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode), "open", path)),
    openAppend: (path, mode) =>
      onPath(path, (p) =>
        check(c.open(p, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode), "open", path),
      ),
    pread: (fd, buf, offset, length, position) =>
      length <= 0 ? 0 : check(c.pread(fd, ptr(buf, offset), length, position), "read"),
    write: (fd, buf, offset) =>
      offset >= buf.length ? 0 : check(c.write(fd, ptr(buf, offset), buf.length - offset), "write"),
    writeAll(fd, buf) {
      for (let off = 0; off < buf.length; ) off += this.write(fd, buf, off);
    },
    fsync: (fd) => void check(c.fsync(fd), "fsync"),
    close: (fd) => void check(c.close(fd), "close"),
    fstat: (fd) => {
      const buf = new Uint8Array(256);
      check(c.statx(fd, ptr(empty), AT_EMPTY_PATH, STATX_BASIC_STATS, ptr(buf)), "fstat");
      return statOf(new DataView(buf.buffer));
    },
    lstat: (path) => {
      const buf = new Uint8Array(256);
      onPath(path, (p) => check(c.statx(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, ptr(buf)), "lstat", path));
      return statOf(new DataView(buf.buffer));
    },
    rename: (from, to) => void onPath(from, (a) => onPath(to, (b) => check(c.rename(a, b), "rename", to))),
    unlink: (path) => void onPath(path, (p) => check(c.unlink(p), "unlink", path)),
    mkdir: (path, mode) => void onPath(path, (p) => check(c.mkdir(p, mode), "mkdir", path)),
    pollIn: (fd, timeoutMs) => {
      // struct pollfd { int fd; short events; short revents; } with events = POLLIN.
      const pfd = new Int32Array([fd, POLLIN]);
      for (;;) {
        const rc = c.poll(ptr(pfd), 1, Math.max(0, Math.min(Math.ceil(timeoutMs), 2 ** 31 - 1)));
        if (rc >= 0) return rc > 0;
        if (read.i32(c.__errno_location()!, 0) !== EINTR) fail("poll");
      }
    },
    read: (fd, buf, offset, length) => (length <= 0 ? 0 : check(c.read(fd, ptr(buf, offset), length), "read")),
    realpath: (path) => {
      const out = new Uint8Array(4097); // PATH_MAX + 1
      if (!onPath(path, (p) => c.realpath(p, ptr(out)))) fail("realpath", path);
      return Buffer.from(out.subarray(0, out.indexOf(0))).toString("utf8");
    },
  };
}

// --- internal ---

/**
 * Calls `fn` with a pointer to `path` as a C string, and keeps the string's memory alive until `fn` returns.
 * A pointer alone does not keep its buffer from the collector: `c.rename(ptr(cstr(a)), ptr(cstr(b)))` let the
 * first buffer go while the second was allocated, and rename then read freed memory (ENOENT, rarely, in runs
 * that allocate a lot: 3 of about 700 finalizes of the summary-truth benchmark).
 */
function onPath<T>(path: string, fn: (p: Pointer) => T): T {
  const bytes = cstr(path);
  const out = fn(ptr(bytes));
  // read after the call: the buffer stays reachable until here (a C string is never empty)
  if (bytes.length === 0) throw new SysError("EINVAL", "path", path);
  return out;
}

/** A NUL-terminated UTF-8 copy of `s`; a NUL inside is refused like the kernel would. */
function cstr(s: string): Uint8Array {
  if (s.includes("\0")) throw new SysError("EINVAL", "path", s.replace(/\0/g, "\\0"));
  return Buffer.from(`${s}\0`, "utf8");
}

/** Reads struct statx (the same layout on every Linux architecture). */
function statOf(v: DataView): Stat {
  const mode = v.getUint16(28, true) & S_IFMT;
  return {
    isFile: mode === 0o100000,
    isDirectory: mode === 0o040000,
    isCharDevice: mode === 0o020000,
    isSymlink: mode === 0o120000,
    uid: v.getUint32(20, true),
    perm: v.getUint16(28, true) & 0o7777,
    size: Number(v.getBigUint64(40, true)),
    mtimeMs: Number(v.getBigInt64(112, true)) * 1000 + v.getUint32(120, true) / 1e6,
  };
}
