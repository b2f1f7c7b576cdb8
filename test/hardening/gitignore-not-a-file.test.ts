/**
 * Issue 32, item 8: a repository that commits `.ctx/.gitignore` as a directory. The old code could not
 * replace it (a rename onto a directory fails), went on writing state, and after a finalize
 * `git add -A` staged the session state, summaries and records; `ctx doctor` warned, but its fix
 * (`printf … > .ctx/.gitignore`) fails on a directory. Now ctx adds `/.ctx/` to the repository's own
 * `info/exclude` (a worktree's common one too) before it writes, and doctor's fix works.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STATE_IGNORE } from "../../src/io/fs/dirs.ts";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
const gitIn = (dir: string, ...args: string[]) =>
  Bun.spawnSync(["git", "-C", dir, ...args], { env: { ...sb.env, GIT_CONFIG_NOSYSTEM: "1" } });
const git = (...args: string[]) => gitIn(sb.project, ...args).stdout.toString();
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never" });
  rmSync(join(sb.project, ".git"), { recursive: true });
  git("init", "-q");
  git("config", "user.email", "a@b.c");
  git("config", "user.name", "a");
  mkdirSync(join(sb.project, ".ctx", ".gitignore"), { recursive: true }); // what the hostile repository ships
  writeFileSync(join(sb.project, ".ctx", ".gitignore", "keep"), "x\n");
  git("add", "-f", ".ctx/.gitignore/keep");
  git("commit", "-qm", "ship it");
});
afterEach(() => sb.cleanup());

const hook = (cwd: string, event: string, extra: object = {}) =>
  runCtx(["track"], {
    env: sb.env,
    cwd,
    stdin: JSON.stringify({
      session_id: "s1",
      cwd,
      hook_event_name: event,
      transcript_path: sb.transcript,
      ...extra,
    }),
  });

const staged = (dir: string) => {
  gitIn(dir, "add", "-A");
  return gitIn(dir, "diff", "--cached", "--name-only").stdout.toString().split("\n").filter(Boolean);
};

test("state written under a .gitignore directory is never staged: git ignores .ctx/ through info/exclude", async () => {
  expect((await hook(sb.project, "SessionStart", { source: "startup" })).code).toBe(0);
  const f = await runCtx(["finalize", "--session", "s1", "--transcript", sb.transcript], {
    env: sb.env,
    cwd: sb.project,
  });
  expect(f.code).toBe(0);
  expect(readFileSync(join(sb.project, ".git", "info", "exclude"), "utf8")).toContain("\n/.ctx/\n");
  expect(staged(sb.project)).toEqual([]);
  // git still knows the tracked file (excluding never untracks), and the summary exists, out of git.
  expect(git("ls-files").trim()).toBe(".ctx/.gitignore/keep");
  expect(git("status", "--short", "--ignored").includes("!! .ctx/")).toBe(true);
});

test("doctor warns and its fix works: the directory goes, ctx's file comes, doctor says ok", async () => {
  const env = { ...sb.env, NO_COLOR: "1" };
  const r = await runCtx(["doctor"], { env, cwd: sb.project });
  const line = r.stdout.split("\n").find((l) => l.includes("is not a file"));
  expect(line).toContain("warn  state out of git:");
  const fix = r.stdout.split("\n").find((_l, i, all) => i > 0 && all[i - 1] === line)!;
  const cmd = fix.replace(/^\s*(?:fix:|→)?\s*/, "");
  expect(cmd).toContain("rm -r ");
  expect(Bun.spawnSync(["sh", "-c", cmd], { cwd: sb.project }).exitCode).toBe(0);
  expect(readFileSync(join(sb.project, ".ctx", ".gitignore"), "utf8")).toBe(STATE_IGNORE);
  const again = await runCtx(["doctor"], { env, cwd: sb.project });
  expect(again.stdout).toContain(`ok    state out of git: ${join(sb.project, ".ctx", ".gitignore")} holds '*'`);
});

test("in a linked worktree the pattern goes to the common info/exclude", async () => {
  const wt = join(sb.dir, "wt");
  expect(gitIn(sb.project, "worktree", "add", "-q", wt).exitCode).toBe(0);
  expect((await hook(wt, "SessionStart", { source: "startup" })).code).toBe(0);
  expect(readFileSync(join(sb.project, ".git", "info", "exclude"), "utf8")).toContain("\n/.ctx/\n");
  expect(staged(wt)).toEqual([]);
});

test("a project in a subdirectory whose name holds glob characters: the pattern names exactly it", async () => {
  const sub = join(sb.project, "app [1]*");
  mkdirSync(join(sub, ".ctx", ".gitignore"), { recursive: true });
  writeFileSync(join(sub, "main.txt"), "work\n");
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: sub };
  const r = await runCtx(["track"], {
    env,
    cwd: sub,
    stdin: JSON.stringify({
      session_id: "s2",
      cwd: sub,
      hook_event_name: "SessionStart",
      source: "startup",
      transcript_path: sb.transcript,
    }),
  });
  expect(r.code).toBe(0);
  expect(readFileSync(join(sb.project, ".git", "info", "exclude"), "utf8")).toContain("\n/app \\[1]\\*/.ctx/\n");
  expect(staged(sb.project)).toEqual(["app [1]*/main.txt"]);
});
