import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ensureDir,
  readFileSafe,
  readJsonFile,
  STATE_IGNORE,
  writeFileAtomic,
  writeJsonAtomic,
} from "../../../src/io/fs/fsx.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

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

describe("ensureDir() and .ctx/.gitignore", () => {
  test("creating <project>/.ctx/... writes .ctx/.gitignore holding *", () => {
    const project = join(t.dir, "proj");
    mkdirSync(project);
    writeFileSync(join(project, ".gitignore"), "node_modules\n");
    ensureDir(join(project, ".ctx", "state", "sessions"));
    expect(readFileSync(join(project, ".ctx", ".gitignore"), "utf8")).toBe(STATE_IGNORE);
    expect(STATE_IGNORE.split("\n")).toContain("*");
    expect(readFileSync(join(project, ".gitignore"), "utf8")).toBe("node_modules\n"); // the user's own: untouched
  });
  test("an existing .ctx/ without one gets it on the next write; an existing one is kept", () => {
    const root = join(t.dir, "proj", ".ctx");
    mkdirSync(join(root, "state"), { recursive: true });
    writeJsonAtomic(join(root, "state", "x.json"), { a: 1 });
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe(STATE_IGNORE);
    writeFileSync(join(root, ".gitignore"), "mine\n");
    ensureDir(join(root, "sessions"));
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe("mine\n");
  });
  test("a planted symlink is not followed; other directories get nothing", () => {
    const root = join(t.dir, "p", ".ctx");
    mkdirSync(root, { recursive: true });
    symlinkSync(join(t.dir, "victim"), join(root, ".gitignore"));
    ensureDir(join(root, "state"));
    expect(existsSync(join(t.dir, "victim"))).toBe(false);
    ensureDir(join(t.dir, "elsewhere", "ctx"));
    expect(existsSync(join(t.dir, "elsewhere", "ctx", ".gitignore"))).toBe(false);
  });
  test("a read-only .ctx/ does not make ensureDir fail", () => {
    const root = join(t.dir, "ro", ".ctx");
    mkdirSync(join(root, "state"), { recursive: true });
    chmodSync(root, 0o500);
    try {
      expect(() => ensureDir(join(root, "state"))).not.toThrow();
    } finally {
      chmodSync(root, 0o700);
    }
  });
});
