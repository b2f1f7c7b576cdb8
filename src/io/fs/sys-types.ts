/** What fstat tells about an open file. */
export interface Stat {
  isFile: boolean;
  isDirectory: boolean;
  isCharDevice: boolean;
  /** A symbolic link (only lstat can say so). */
  isSymlink: boolean;
  size: number;
  uid: number;
  /** The permission bits with setuid, setgid and sticky (`mode & 0o7777`). */
  perm: number;
  mtimeMs: number;
}

/** A failed system call, with node's error code names (ENOENT, EEXIST, …). */
export class SysError extends Error {
  constructor(
    readonly code: string,
    readonly syscall: string,
    path?: string,
  ) {
    super(`${code}: ${syscall}${path ? ` ${path}` : ""}`);
  }
}

/** Synchronous file calls; every one throws SysError on failure. */
export interface Sys {
  /** Opens for reading without following a symlink or blocking on a FIFO. */
  openRead(path: string): number;
  /** Creates a new file (O_EXCL, never through a symlink) for writing. */
  openExclusive(path: string, mode: number): number;
  /**
   * Opens for appending (created with `mode` when missing) without following a
   * symlink or blocking on a FIFO; the caller checks it got a regular file.
   */
  openAppend(path: string, mode: number): number;
  /** Reads up to `length` bytes at `position` into `buf` from `offset`. */
  pread(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number;
  /** One write(2) of `buf` from `offset`; returns the bytes written. */
  write(fd: number, buf: Uint8Array, offset: number): number;
  /** Writes all of `buf` (retrying short writes). */
  writeAll(fd: number, buf: Uint8Array): void;
  fsync(fd: number): void;
  close(fd: number): void;
  fstat(fd: number): Stat;
  /** Stats `path` itself, not what a symlink there points to. */
  lstat(path: string): Stat;
  rename(from: string, to: string): void;
  unlink(path: string): void;
  /** Creates one directory level; EEXIST is the caller's to handle. */
  mkdir(path: string, mode: number): void;
  /** `path` with every symlink, `.` and `..` resolved (realpath(3)). */
  realpath(path: string): string;
  /**
   * Waits up to `timeoutMs` until `fd` can be read (data, end of file or a hang-up):
   * true when it can, false on timeout. Only where poll(2) is reachable (the libc path).
   */
  pollIn?(fd: number, timeoutMs: number): boolean;
  /** One read(2) of up to `length` bytes into `buf` at `offset`; 0 at end of file. */
  read?(fd: number, buf: Uint8Array, offset: number, length: number): number;
}
