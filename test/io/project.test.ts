import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findProject, projectFrom } from "../../src/io/project.ts";
import { tempDir } from "../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

describe("projectFrom()", () => {
  test("the nearest folder with .ctx/ wins", () => {
    const proj = join(t.dir, "proj");
    mkdirSync(join(proj, ".ctx"), { recursive: true });
    mkdirSync(join(proj, "src", "deep"), { recursive: true });
    expect(projectFrom(join(proj, "src", "deep"))).toBe(proj);
    expect(projectFrom(proj)).toBe(proj);
  });
  test("else the git root (a .git file of a worktree counts too)", () => {
    const repo = join(t.dir, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "a", "b"), { recursive: true });
    expect(projectFrom(join(repo, "a", "b"))).toBe(repo);
    const wt = join(t.dir, "wt");
    mkdirSync(join(wt, "x"), { recursive: true });
    writeFileSync(join(wt, ".git"), "gitdir: /elsewhere\n");
    expect(projectFrom(join(wt, "x"))).toBe(wt);
  });
  test("a .ctx/ above the git root does not capture the checkout", () => {
    mkdirSync(join(t.dir, "work", ".ctx"), { recursive: true });
    const repo = join(t.dir, "work", "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "src"));
    expect(projectFrom(join(repo, "src"))).toBe(repo);
  });
  test("a file named .ctx is not a state directory; nothing found: stay", () => {
    const d = join(t.dir, "plain", "sub");
    mkdirSync(d, { recursive: true });
    writeFileSync(join(t.dir, "plain", ".ctx"), "");
    expect(projectFrom(d)).toBe(d);
  });
});

test("findProject(): CLAUDE_PROJECT_DIR first (the agent ran the command), else the walk", () => {
  const proj = join(t.dir, "p");
  mkdirSync(join(proj, ".ctx", "x"), { recursive: true });
  expect(findProject({ CLAUDE_PROJECT_DIR: "/somewhere" }, join(proj, ".ctx", "x"))).toBe("/somewhere");
  expect(findProject({}, join(proj, ".ctx", "x"))).toBe(proj);
});
