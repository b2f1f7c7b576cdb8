import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { ffiSys } from "../../../src/io/fs/sys-ffi.ts";
import { nodeSys } from "../../../src/io/fs/sys-node.ts";
import { SysError, type Sys } from "../../../src/io/fs/sys-types.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

const impls: [string, () => Sys][] = [["node", nodeSys]];
if (process.platform === "linux") impls.push(["ffi", ffiSys]);

describe.each(impls)("%s sys", (_name, make) => {
  const s = make();
  const code = (fn: () => unknown): string | undefined => {
    try {
      fn();
      return undefined;
    } catch (err) {
      expect(err).toBeInstanceOf(SysError);
      return (err as SysError).code;
    }
  };

  test("creates, writes, syncs, renames and reads back", () => {
    const p = join(t.dir, "a.tmp");
    const fd = s.openExclusive(p, 0o600);
    s.writeAll(fd, Buffer.from("héllo wörld"));
    s.fsync(fd);
    s.close(fd);
    s.rename(p, join(t.dir, "a"));
    const rd = s.openRead(join(t.dir, "a"));
    const st = s.fstat(rd);
    expect(st).toMatchObject({
      isFile: true,
      isDirectory: false,
      isCharDevice: false,
      size: 13,
      uid: process.getuid!(),
      perm: 0o600,
    });
    expect(Math.abs(st.mtimeMs - Date.now())).toBeLessThan(60_000);
    const buf = Buffer.alloc(20);
    expect(s.pread(rd, buf, 2, 5, 1)).toBe(5);
    expect(buf.subarray(2, 7).toString()).toBe("éllo");
    s.close(rd);
    expect(readFileSync(join(t.dir, "a"), "utf8")).toBe("héllo wörld");
  });

  test("reports errors with node's codes", () => {
    expect(code(() => s.openRead(join(t.dir, "missing")))).toBe("ENOENT");
    writeFileSync(join(t.dir, "x"), "");
    expect(code(() => s.openExclusive(join(t.dir, "x"), 0o600))).toBe("EEXIST");
    symlinkSync(join(t.dir, "x"), join(t.dir, "link"));
    expect(code(() => s.openRead(join(t.dir, "link")))).toBe("ELOOP");
    expect(code(() => s.openExclusive(join(t.dir, "link"), 0o600))).toBe("EEXIST");
    expect(code(() => s.unlink(join(t.dir, "missing")))).toBe("ENOENT");
    expect(code(() => s.mkdir(join(t.dir, "a", "b"), 0o700))).toBe("ENOENT");
    expect(code(() => s.rename(join(t.dir, "missing"), join(t.dir, "y")))).toBe("ENOENT");
  });

  test("mkdir and fstat of a directory", () => {
    s.mkdir(join(t.dir, "d"), 0o700);
    expect(code(() => s.mkdir(join(t.dir, "d"), 0o700))).toBe("EEXIST");
    const fd = s.openRead(join(t.dir, "d"));
    expect(s.fstat(fd).isDirectory).toBe(true);
    s.close(fd);
  });

  test("opening a FIFO for reading does not block", () => {
    Bun.spawnSync(["mkfifo", join(t.dir, "fifo")]);
    const fd = s.openRead(join(t.dir, "fifo"));
    expect(s.fstat(fd).isFile).toBe(false);
    s.close(fd);
  });

  test.if(!!s.pollIn && !!s.read)("pollIn waits for data with a timeout, read takes it", () => {
    const fifo = join(t.dir, "pipe");
    Bun.spawnSync(["mkfifo", fifo]);
    const rd = s.openRead(fifo);
    const started = Date.now();
    expect(s.pollIn!(rd, 60)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    const wr = openSync(fifo, "w");
    writeSync(wr, "abc");
    expect(s.pollIn!(rd, 1000)).toBe(true);
    const buf = Buffer.alloc(10);
    expect(s.read!(rd, buf, 1, 9)).toBe(3);
    expect(buf.subarray(1, 4).toString()).toBe("abc");
    closeSync(wr);
    expect(s.pollIn!(rd, 1000)).toBe(true); // the writer hung up: readable, at end of file
    expect(s.read!(rd, buf, 0, 10)).toBe(0);
    s.close(rd);
  });

  test("realpath resolves links, . and ..; a missing path is ENOENT; the permission bits come with a stat", () => {
    const real = realpathSync(t.dir);
    mkdirSync(join(t.dir, "a", "b"), { recursive: true, mode: 0o700 });
    symlinkSync(join(t.dir, "a"), join(t.dir, "ln"));
    expect(s.realpath(join(t.dir, "ln", "b", "..", "b"))).toBe(join(real, "a", "b"));
    expect(s.realpath(`${t.dir}/./a//b/`)).toBe(join(real, "a", "b"));
    expect(code(() => s.realpath(join(t.dir, "missing")))).toBe("ENOENT");
    chmodSync(join(t.dir, "a"), 0o1777);
    expect(s.lstat(join(t.dir, "a")).perm).toBe(0o1777);
  });

  test("a NUL in a path is refused", () => {
    mkdirSync(join(t.dir, "n"));
    expect(code(() => s.openRead(`${t.dir}/n\0/x`))).toBeDefined();
  });
});
