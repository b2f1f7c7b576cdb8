/**
 * Something other than a regular file where ctx appends or writes one file of
 * many (a FIFO, a dangling symlink, a directory): that one write fails, never
 * hangs, and everything else (the state, the level message, `ctx status`,
 * the records of finalize) still happens.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, waitForStrays, type Sandbox } from "./sandbox.ts";

const SID = "s1";
let sb: Sandbox;
let sessions: string;
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" });
  sessions = join(sb.project, ".ctx", "sessions");
  mkdirSync(sessions, { recursive: true });
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: 92,
      remaining_percentage: 8,
      timestamp: Date.now() / 1000,
      used_tokens: 184000,
      context_window_size: 200000,
    }),
  );
});
afterEach(async () => {
  await waitForStrays(sb.dir);
  sb.cleanup();
});

const hook = (i: number) =>
  JSON.stringify({
    session_id: SID,
    cwd: sb.project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: `echo ${i}` },
    tool_response: { stdout: "" },
    tool_use_id: `toolu_${i}`,
  });
const statePath = () => join(sb.project, ".ctx", "state", "sessions", `${SID}.json`);

/** Three track calls: each quick, exit 0, the state counts all three, the first says AUTO-PAUSE. */
async function trackThrice(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const r = await runCtx(["track"], {
      stdin: hook(i),
      env: sb.env,
      cwd: sb.project,
      timeoutMs: 8000,
      countWaits: true,
    });
    expect({ i, code: r.code, stderr: r.stderr }).toEqual({ i, code: 0, stderr: "" });
    expect(r.waited!.sleptMs).toBeLessThan(2500);
    if (i === 0) expect(JSON.parse(r.stdout).systemMessage).toContain("AUTO-PAUSE");
  }
  const state = JSON.parse(readFileSync(statePath(), "utf8"));
  expect({ tool_calls: state.tool_calls, used_pct: state.used_pct, pause: state.auto_pause_active }).toEqual({
    tool_calls: 3,
    used_pct: 92,
    pause: true,
  });
  const status = await runCtx(["status"], { env: sb.env, cwd: sb.project });
  expect(status.stdout).toContain("92%");
}

describe("ACTIVE-PAUSE-<sid>.jsonl is not a regular file", () => {
  test("a FIFO: track never blocks on it, the state is written", async () => {
    Bun.spawnSync(["mkfifo", join(sessions, `ACTIVE-PAUSE-${SID}.jsonl`)]);
    await trackThrice();
  }, 30_000);

  test("a dangling symlink: only the pause append fails, the target is never created", async () => {
    const target = join(sb.dir, "planted-target.jsonl");
    symlinkSync(target, join(sessions, `ACTIVE-PAUSE-${SID}.jsonl`));
    await trackThrice();
    expect(existsSync(target)).toBe(false);
  }, 30_000);

  test("a directory: only the pause append fails", async () => {
    mkdirSync(join(sessions, `ACTIVE-PAUSE-${SID}.jsonl`));
    await trackThrice();
  }, 30_000);
});

describe("LATEST-SESSION.txt is a directory", () => {
  test("finalize still writes the summary and the records, exit 0", async () => {
    await runCtx(["track"], { stdin: hook(0), env: sb.env, cwd: sb.project });
    mkdirSync(join(sessions, "LATEST-SESSION.txt"));
    const r = await runCtx(["finalize", "--session", SID, "--transcript", sb.transcript], {
      env: sb.env,
      cwd: sb.project,
    });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const names = readdirSync(sessions);
    expect(names.some((n) => /^summary-.*\.md$/.test(n))).toBe(true);
    expect(names.filter((n) => /^session-\d{8}-\d{6}\.(json|yaml|md)$/.test(n))).toHaveLength(3);
    expect(JSON.parse(readFileSync(statePath(), "utf8")).finalized_stamp).toMatch(/^\d{8}-\d{6}$/);
  }, 30_000);
});
