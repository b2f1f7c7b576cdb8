/**
 * Issue 21, class 4: a committed `.ctx/.gitignore` holding `!*` defeated "state never lands in
 * git". Before the fix ctx kept any existing `.ctx/.gitignore`, so `git add -A` staged the
 * session state ctx then wrote, and `ctx doctor` said nothing. Now the file is ctx's: it is
 * rewritten to `*` whenever ctx writes state, and doctor reports a tampered one.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STATE_IGNORE } from "../../src/io/fs/dirs.ts";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
const git = (...args: string[]) =>
  Bun.spawnSync(["git", "-C", sb.project, ...args], { env: { ...sb.env, GIT_CONFIG_NOSYSTEM: "1" } }).stdout.toString();
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never" });
  rmSync(join(sb.project, ".git"), { recursive: true });
  git("init", "-q");
  git("config", "user.email", "a@b.c");
  git("config", "user.name", "a");
  mkdirSync(join(sb.project, ".ctx"));
  writeFileSync(join(sb.project, ".ctx", ".gitignore"), "*\n!*\n"); // what the hostile repository ships
  git("add", "-f", ".ctx/.gitignore");
  git("commit", "-qm", "ship it");
});
afterEach(() => sb.cleanup());

const sessionStart = () =>
  runCtx(["track"], {
    env: sb.env,
    cwd: sb.project,
    stdin: JSON.stringify({
      session_id: "s1",
      cwd: sb.project,
      hook_event_name: "SessionStart",
      source: "startup",
      transcript_path: sb.transcript,
    }),
  });

test("ctx doctor reports the tampered file", async () => {
  const r = await runCtx(["doctor"], { env: { ...sb.env, NO_COLOR: "1" }, cwd: sb.project });
  expect(r.stdout).toContain(`warn  state out of git: ${join(sb.project, ".ctx", ".gitignore")} is not ctx's`);
});

test("the first state write makes it ctx's again: git add -A stages no state", async () => {
  expect((await sessionStart()).code).toBe(0);
  expect(readFileSync(join(sb.project, ".ctx", ".gitignore"), "utf8")).toBe(STATE_IGNORE);
  git("add", "-A");
  const staged = git("diff", "--cached", "--name-only").split("\n").filter(Boolean);
  expect(staged).toEqual([".ctx/.gitignore"]); // the repository's own file, now ignoring everything
  const r = await runCtx(["doctor"], { env: { ...sb.env, NO_COLOR: "1" }, cwd: sb.project });
  expect(r.stdout).toContain(`ok    state out of git: ${join(sb.project, ".ctx", ".gitignore")} holds '*'`);
});

test("doctor names state files git already tracks (ignoring does not untrack them); config.yaml may be", async () => {
  writeFileSync(join(sb.project, ".ctx", "token-ledger.json"), "{}\n");
  writeFileSync(join(sb.project, ".ctx", "config.yaml"), "levels:\n  warning: 60\n");
  git("add", "-f", ".ctx/token-ledger.json", ".ctx/config.yaml");
  git("commit", "-qm", "more");
  const r = await runCtx(["doctor"], { env: { ...sb.env, NO_COLOR: "1" }, cwd: sb.project });
  expect(r.stdout).toContain("warn  state out of git: git tracks 1 file(s) of ctx's state: .ctx/token-ledger.json");
});
