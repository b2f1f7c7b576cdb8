/**
 * A `ctx finalize` killed while it writes a summary leaves its lock behind
 * (`<sid>.json.finalize.lock`). The resume hook after /clear waits for a
 * finalize only while it runs: a lock whose holder is dead means no wait at all,
 * and a live one is waited for once, never longer than `resume.finalize_wait_ms`
 * in all (it used to wait twice: 20 s with the 10 s default).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
let root: string;
let holder: ReturnType<typeof Bun.spawn> | undefined;
beforeEach(() => {
  sb = makeSandbox({ CTX_DEBUG: "1" });
  root = join(sb.project, ".ctx");
  mkdirSync(join(root, "sessions"), { recursive: true });
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
  // a1 was auto-paused and ended: its finalize is due. /clear started a2 in the same chain.
  const now = new Date().toISOString();
  const state = (sid: string, over: Record<string, unknown>) =>
    writeFileSync(
      join(root, "state", "sessions", `${sid}.json`),
      JSON.stringify({ version: 1, session_id: sid, project: sb.project, started_at: now, updated_at: now, ...over }),
    );
  state("a1", { task_id: "chain-aaaa", auto_pause_active: true, last_event: "SessionEnd", next_session_id: "a2" });
  state("a2", { task_id: "chain-aaaa", previous_session_id: "a1" });
});
afterEach(async () => {
  holder?.kill(9);
  await holder?.exited;
  holder = undefined;
  sb.cleanup();
});

/** Takes a1's finalize lock with ctx's own acquireLock in another process, as a running finalize holds it. */
async function finalizeLock(): Promise<ReturnType<typeof Bun.spawn>> {
  const lock = join(root, "state", "sessions", "a1.json.finalize.lock");
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "lock-holder.ts"), lock], { stdout: "pipe" });
  expect(new TextDecoder().decode((await p.stdout.getReader().read()).value)).toBe("locked\n");
  return p;
}

async function resumeHook(waitMs: number) {
  const stdin = JSON.stringify({ session_id: "a2", cwd: sb.project, hook_event_name: "SessionStart", source: "clear" });
  // Killed after 20 s: a hook that waits out a 120 s finalize_wait_ms fails the test.
  return runCtx(["resume", "--hook"], {
    env: { ...sb.env, CTX_RESUME_FINALIZE_WAIT_MS: String(waitMs) },
    stdin,
    cwd: sb.project,
    timeoutMs: 20_000,
  });
}

test.each([
  ["no summary yet", false],
  ["an older summary of the chain", true],
])(
  "a finalize killed with -9 holding its lock (%s): the resume hook does not wait at all",
  async (_, older) => {
    if (older) writeFileSync(join(root, "sessions", "summary-chain-aaaa-20250101-100000.md"), "older alpaca");
    holder = await finalizeLock();
    holder.kill(9);
    await holder.exited;
    const r = await resumeHook(120_000);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("did not appear");
    expect(r.stdout === "" ? "" : JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(
      older ? "older alpaca" : "",
    );
  },
  30_000,
);

test("a live finalize that never finishes is waited for once, resume.finalize_wait_ms in all", async () => {
  holder = await finalizeLock();
  const r = await resumeHook(1500);
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "" });
  expect(r.stderr.match(/did not appear \(waited up to 1500 ms\)/g)).toHaveLength(1);
}, 30_000);
