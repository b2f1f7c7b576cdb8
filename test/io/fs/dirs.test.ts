import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureDir, STATE_IGNORE } from "../../../src/io/fs/dirs.ts";
import { writeJsonAtomic } from "../../../src/io/fs/write.ts";
import { tempDirEach } from "../../helpers/each.ts";

const t = tempDirEach();

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
  test("an existing .ctx/ without one gets it on the next write; one with anything else is rewritten", () => {
    const root = join(t.dir, "proj", ".ctx");
    mkdirSync(join(root, "state"), { recursive: true });
    writeJsonAtomic(join(root, "state", "x.json"), { a: 1 });
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe(STATE_IGNORE);
    writeFileSync(join(root, ".gitignore"), "*\n!*\n");
    ensureDir(join(root, "sessions"));
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe(STATE_IGNORE);
  });
  test("a planted symlink is replaced, not followed; other directories get nothing", () => {
    const root = join(t.dir, "p", ".ctx");
    mkdirSync(root, { recursive: true });
    symlinkSync(join(t.dir, "victim"), join(root, ".gitignore"));
    ensureDir(join(root, "state"));
    expect(existsSync(join(t.dir, "victim"))).toBe(false);
    expect(lstatSync(join(root, ".gitignore")).isFile()).toBe(true);
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe(STATE_IGNORE);
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
