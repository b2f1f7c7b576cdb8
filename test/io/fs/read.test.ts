import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readFileSafe, readJsonFile } from "../../../src/io/fs/read.ts";
import { tempDirEach } from "../../helpers/each.ts";

const t = tempDirEach();

describe("readFileSafe()", () => {
  test("does not follow a symlink", () => {
    writeFileSync(join(t.dir, "real"), "secret");
    symlinkSync(join(t.dir, "real"), join(t.dir, "link"));
    expect(readFileSafe(join(t.dir, "link"))).toBeUndefined();
    expect(readFileSafe(join(t.dir, "real"))).toBe("secret");
  });
  test("does not block on a FIFO", () => {
    const fifo = join(t.dir, "fifo");
    Bun.spawnSync(["mkfifo", fifo]);
    expect(readFileSafe(fifo)).toBeUndefined();
  });
  test("refuses directories, big files and other owners", () => {
    mkdirSync(join(t.dir, "d"));
    expect(readFileSafe(join(t.dir, "d"))).toBeUndefined();
    writeFileSync(join(t.dir, "big"), "x".repeat(100));
    expect(readFileSafe(join(t.dir, "big"), { maxBytes: 10 })).toBeUndefined();
    expect(readFileSafe(join(t.dir, "big"), { ownerUid: 999_999 })).toBeUndefined();
  });
});

describe("readJsonFile()", () => {
  test("tells missing, corrupt and ok apart", () => {
    expect(readJsonFile(join(t.dir, "none")).status).toBe("missing");
    writeFileSync(join(t.dir, "bad"), '{"a":');
    expect(readJsonFile(join(t.dir, "bad"))).toEqual({ status: "corrupt", text: '{"a":' });
    writeFileSync(join(t.dir, "good"), '{"a":1}');
    expect(readJsonFile(join(t.dir, "good"))).toEqual({ status: "ok", value: { a: 1 } });
  });
});
