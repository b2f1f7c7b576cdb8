import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findProject, hookProject, projectFrom } from "../../src/io/project.ts";
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

test("findProject(): the walk from CLAUDE_PROJECT_DIR (the agent ran the command), else from the working directory", () => {
  const proj = join(t.dir, "p");
  mkdirSync(join(proj, ".ctx", "x"), { recursive: true });
  mkdirSync(join(proj, "src"));
  expect(findProject({ CLAUDE_PROJECT_DIR: "/nonexistent/somewhere" }, join(proj, ".ctx", "x"))).toBe(
    "/nonexistent/somewhere",
  );
  // A client started in a subfolder sets CLAUDE_PROJECT_DIR to it: the project is still the one above.
  expect(findProject({ CLAUDE_PROJECT_DIR: join(proj, "src") }, "/")).toBe(proj);
  expect(findProject({}, join(proj, ".ctx", "x"))).toBe(proj);
});

test("hookProject(): a hook finds the same project as a typed command, from CLAUDE_PROJECT_DIR or its cwd", () => {
  const repo = join(t.dir, "shop");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "src", "deep"), { recursive: true });
  const sub = join(repo, "src");
  expect(hookProject({}, sub, "/")).toBe(repo);
  expect(hookProject({ CLAUDE_PROJECT_DIR: sub }, join(sub, "deep"), "/")).toBe(repo);
  expect(hookProject({}, undefined, join(sub, "deep"))).toBe(findProject({}, join(sub, "deep")));
  // A .ctx/ made in the subfolder before (by an older ctx) is the nearest one: it stays that project's.
  mkdirSync(join(sub, ".ctx"));
  expect(hookProject({}, join(sub, "deep"), "/")).toBe(sub);
});

test("a .ctx link counts as the directory it leads to (stat semantics, through lstat and realpath)", () => {
  const proj = join(t.dir, "linked");
  mkdirSync(join(proj, "a"), { recursive: true });
  mkdirSync(join(t.dir, "elsewhere"));
  symlinkSync(join(t.dir, "elsewhere"), join(proj, ".ctx"));
  expect(projectFrom(join(proj, "a"))).toBe(proj);
  const dangling = join(t.dir, "dangling");
  mkdirSync(join(dangling, "a"), { recursive: true });
  symlinkSync("/nonexistent-target", join(dangling, ".ctx"));
  expect(projectFrom(join(dangling, "a"))).toBe(join(dangling, "a"));
  expect(projectFrom("rel/dir")).toBe("rel/dir");
});
