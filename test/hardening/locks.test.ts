/**
 * Things planted at lock paths that can never be a live lock: a directory, a
 * symlink (dangling or not), a FIFO, a file over 4 KB, an empty or garbled
 * lock stamped in the future. Each is broken and replaced at once: hooks stay
 * fast (far under their 10 s and 30 s registrations) and state keeps being updated.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

const SID = "lock-session";
let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" });
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: 72,
      remaining_percentage: 28,
      timestamp: Date.now() / 1000,
      used_tokens: 144000,
      context_window_size: 200000,
    }),
  );
});
afterEach(() => sb.cleanup());

const FUTURE = new Date("2099-01-01T00:00:00Z");
const PLANTS: Record<string, (path: string) => void> = {
  "a directory (not empty)": (p) => {
    mkdirSync(p);
    writeFileSync(join(p, "x"), "x");
  },
  "a dangling symlink": (p) => symlinkSync(join(sb.dir, "nowhere"), p),
  "a symlink to a file": (p) => {
    writeFileSync(join(sb.dir, "target.txt"), `${process.pid} ${Date.now()} x`);
    symlinkSync(join(sb.dir, "target.txt"), p);
  },
  "a FIFO": (p) => void Bun.spawnSync(["mkfifo", p]),
  "a file over 4 KB": (p) => writeFileSync(p, `${process.pid} ${Date.now()} ${"x".repeat(5000)}`),
  "an empty lock stamped in the future": (p) => {
    writeFileSync(p, "");
    utimesSync(p, FUTURE, FUTURE);
  },
  "a garbled lock stamped in the future": (p) => {
    writeFileSync(p, "garbage \u0000\u0001");
    utimesSync(p, FUTURE, FUTURE);
  },
};

const hook = (i: number) =>
  JSON.stringify({
    session_id: SID,
    cwd: sb.project,
    hook_event_name: "PostToolUse",
    transcript_path: sb.transcript, // its usage goes to the token ledger (under its lock)
    tool_name: "Bash",
    tool_input: { command: `echo ${i}` },
    tool_response: { stdout: "" },
    tool_use_id: `toolu_${i}`,
  });

test.each(
  Object.keys(PLANTS),
)("%s at every lock path: broken and replaced, hooks fast, state updated", async (kind) => {
  const ctx = join(sb.project, ".ctx");
  const index = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions");
  for (const d of [join(ctx, "state", "sessions"), join(ctx, "state", "monitor"), index])
    mkdirSync(d, { recursive: true });
  const locks = [
    join(ctx, "state", "sessions", `${SID}.json.lock`),
    join(ctx, "state", "monitor", `${SID}.json.lock`),
    join(ctx, "token-ledger.json.lock"),
    join(index, `${SID}.json.lock`),
  ];
  for (const l of locks) PLANTS[kind]!(l);
  for (let i = 0; i < 2; i++) {
    const t = await runCtx(["track"], {
      stdin: hook(i),
      env: sb.env,
      cwd: sb.project,
      timeoutMs: 20_000,
      countWaits: true,
    });
    expect({ kind, i, code: t.code, stderr: t.stderr }).toEqual({ kind, i, code: 0, stderr: "" });
    expect(t.waited!.sleptMs).toBeLessThan(2500);
  }
  const m = await runCtx(["monitor"], {
    stdin: hook(9),
    env: sb.env,
    cwd: sb.project,
    timeoutMs: 20_000,
    countWaits: true,
  });
  expect(m.stdout).toContain("CONTEXT WARNING");
  expect(m.waited!.sleptMs).toBeLessThan(2500);
  const state = JSON.parse(readFileSync(join(ctx, "state", "sessions", `${SID}.json`), "utf8"));
  expect(state.tool_calls).toBe(2);
  expect(existsSync(join(ctx, "state", "monitor", `${SID}.json`))).toBe(true);
  expect(JSON.parse(readFileSync(join(index, `${SID}.json`), "utf8")).used_pct).toBe(state.used_pct);
  expect(Object.keys(JSON.parse(readFileSync(join(ctx, "token-ledger.json"), "utf8")).tasks)).toEqual([state.task_id]); // the chain's task id
  // Our own locks are released again: nothing is left at any lock path.
  for (const l of locks) expect({ l, there: existsSync(l) }).toEqual({ l, there: false });
}, 60_000);
