import { describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../../../src/io/fs/write.ts";
import { tempDirEach } from "../../helpers/each.ts";

const t = tempDirEach();

describe("writeFileAtomic()", () => {
  test("writes with the given mode and leaves no temp file", () => {
    const p = join(t.dir, "a.json");
    writeFileAtomic(p, "hello", 0o600);
    expect(readFileSync(p, "utf8")).toBe("hello");
    expect(lstatSync(p).mode & 0o777).toBe(0o600);
    expect([...new Bun.Glob(".*tmp").scanSync(t.dir)]).toEqual([]);
  });
  test("replaces a planted symlink instead of following it", () => {
    const victim = join(t.dir, "victim.txt");
    writeFileSync(victim, "precious");
    const p = join(t.dir, "bridge.json");
    symlinkSync(victim, p);
    writeFileAtomic(p, "new");
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(lstatSync(p).isSymbolicLink()).toBe(false);
    expect(readFileSync(p, "utf8")).toBe("new");
  });
  test("throws in a read-only directory and leaves nothing behind", () => {
    if (process.getuid?.() === 0) {
      // root ignores directory permissions; a missing directory fails the same way
      expect(() => writeFileAtomic(join(t.dir, "missing", "x"), "y")).toThrow();
      return;
    }
    chmodSync(t.dir, 0o500);
    expect(() => writeFileAtomic(join(t.dir, "x"), "y")).toThrow();
  });
});

describe("writeJsonAtomic()", () => {
  test("creates parents and writes indented JSON with a newline", () => {
    const p = join(t.dir, "a", "b", "s.json");
    writeJsonAtomic(p, { version: 1, n: 2 });
    expect(readFileSync(p, "utf8")).toBe('{\n  "version": 1,\n  "n": 2\n}\n');
  });
});
