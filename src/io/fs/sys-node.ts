import type * as NodeFs from "node:fs";
import { SysError, type Stat, type Sys } from "./sys-types.ts";

/** The portable implementation, on node:fs (required here, so only this path pays for loading it). */
export function nodeSys(): Sys {
  const fs = require("node:fs") as typeof NodeFs;
  const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_APPEND } = fs.constants;
  return {
    openRead: (path) => wrap("open", path, () => fs.openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)),
    openExclusive: (path, mode) =>
      wrap("open", path, () => fs.openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode)),
    openAppend: (path, mode) =>
      wrap("open", path, () => fs.openSync(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK, mode)),
    pread: (fd, buf, offset, length, position) =>
      wrap("read", undefined, () => fs.readSync(fd, buf, offset, length, position)),
    write: (fd, buf, offset) => wrap("write", undefined, () => fs.writeSync(fd, buf, offset)),
    writeAll(fd, buf) {
      for (let off = 0; off < buf.length; ) off += this.write(fd, buf, off);
    },
    fsync: (fd) => wrap("fsync", undefined, () => fs.fsyncSync(fd)),
    close: (fd) => wrap("close", undefined, () => fs.closeSync(fd)),
    fstat: (fd) => wrap("fstat", undefined, () => toStat(fs.fstatSync(fd))),
    lstat: (path) => wrap("lstat", path, () => toStat(fs.lstatSync(path))),
    rename: (from, to) => wrap("rename", to, () => fs.renameSync(from, to)),
    unlink: (path) => wrap("unlink", path, () => fs.unlinkSync(path)),
    mkdir: (path, mode) => wrap("mkdir", path, () => fs.mkdirSync(path, { mode })),
    realpath: (path) => wrap("realpath", path, () => fs.realpathSync(path)),
  };
}

// --- internal ---

function toStat(st: NodeFs.Stats): Stat {
  return {
    isFile: st.isFile(),
    isDirectory: st.isDirectory(),
    isCharDevice: st.isCharacterDevice(),
    isSymlink: st.isSymbolicLink(),
    size: st.size,
    uid: st.uid,
    perm: st.mode & 0o7777,
    mtimeMs: st.mtimeMs,
  };
}

function wrap<T>(syscall: string, path: string | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new SysError((err as NodeJS.ErrnoException).code ?? "EIO", syscall, path);
  }
}
