/**
 * A hook payload no client claims is never read as Claude Code's: each hook exits 0 and prints
 * nothing, says so under CTX_DEBUG, and records it in unclaimed.log, which `ctx doctor` shows.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox | undefined;
afterEach(() => {
  sb?.t.cleanup();
  sb = undefined;
});

const odd = JSON.stringify({ hook_event_name: "AfterSomething", session_id: "s1", transcript_path: "/x/s1.jsonl" });

test.each([["monitor"], ["track"], ["resume --hook"]])("ctx %s: reported, not decoded", async (command) => {
  const args = command.split(" ");
  sb = projectSandbox();
  const r = await runCtx(args, { env: { ...sb.env, CTX_DEBUG: "1" }, stdin: odd, cwd: sb.project });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain('a hook payload no client claims (event "AfterSomething")');
  const log = readFileSync(join(sb.env.XDG_STATE_HOME!, "ctx", "unclaimed.log"), "utf8");
  expect(log).toContain(`ctx ${args[0]}: a hook payload no client claims`);
  const doctor = await runCtx(["doctor"], { env: sb.env, cwd: sb.project });
  expect(doctor.stdout).toMatch(/warn {2}input no client claims: last 1 in .*unclaimed\.log/);
  expect(doctor.stdout).toContain("ok    hook errors: none recorded");
});

test("a payload without an event name is not reported (nothing to decode)", async () => {
  sb = projectSandbox();
  const r = await runCtx(["monitor"], { env: { ...sb.env, CTX_DEBUG: "1" }, stdin: "{}", cwd: sb.project });
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain("no client claims");
});
