/**
 * Time: the clock jumping backwards and forwards (injected `now`, and bridge
 * timestamps in the future or the past), and the transcript rotated,
 * truncated or deleted under a running monitor and track (between calls, and
 * during a call through the binary).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { assistantLine } from "../helpers/transcript.ts";
import { checkMonitor } from "./fuzz-contract.ts";
import { rngFor } from "./fuzz-rng.ts";
import { runInproc } from "./inproc.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

const SID = "time-session";
const DAY = 86_400_000;
let sb: Sandbox;
let transcript: string;
beforeEach(() => {
  sb = makeSandbox({
    CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0",
    CTX_TRACK_TRANSCRIPT_WAIT_MS: "0",
    CTX_TRACK_FINALIZE_ON_END: "never",
  });
  transcript = join(sb.dir, "live.jsonl");
});
afterEach(() => sb.cleanup());

const hook = () =>
  Buffer.from(
    JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: sb.project,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: {},
      tool_response: {},
    }),
  );
const bridge = (used: number, tsMs: number) =>
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: used,
      remaining_percentage: 100 - used,
      timestamp: tsMs / 1000,
      used_tokens: used * 2000,
      context_window_size: 200000,
    }),
  );

async function monitorAt(nowMs: number): Promise<string> {
  const r = await runInproc(["monitor"], { env: sb.env, cwd: sb.project, stdin: hook(), now: () => nowMs });
  expect({ code: r.code, stderr: r.stderr, contract: checkMonitor(r.stdout) }).toEqual({
    code: 0,
    stderr: "",
    contract: undefined,
  });
  return r.stdout;
}

async function trackAt(nowMs: number): Promise<Record<string, any>> {
  const r = await runInproc(["track"], { env: sb.env, cwd: sb.project, stdin: hook(), now: () => nowMs });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", `${SID}.json`), "utf8"));
}

describe("clock jumps", () => {
  test("a bridge from the future or the past is stale: the transcript's figure is used instead", async () => {
    const now = Date.now();
    writeFileSync(transcript, `${assistantLine(20_000)}\n`); // 10 %: silent
    for (const ts of [now + DAY, now + 60_000, now - DAY, now - 120_000]) {
      bridge(90, ts);
      expect(await monitorAt(now)).toBe("");
    }
    bridge(90, now);
    expect(await monitorAt(now)).toContain("CONTEXT CRITICAL"); // the control: a fresh bridge is used
  });

  test("the monitor's debounce counts tool uses, not time: the clock jumping back and forth changes nothing", async () => {
    writeFileSync(transcript, `${assistantLine(140_000)}\n`); // 70 %: WARNING
    const base = Date.now();
    const clocks = [0, -DAY, 365 * DAY, -365 * DAY, 5, -5, 0, DAY, -DAY, 1, -10 * DAY].map((d) => base + d);
    const fired = [];
    for (const c of clocks) fired.push((await monitorAt(c)) !== "");
    // The first fires, then every 5th tool use after it (monitor.debounce_calls), whatever the clock says.
    expect(fired).toEqual([true, false, false, false, false, true, false, false, false, false, true]);
  });

  test("track keeps counting when the clock jumps backwards, and records the time it was given", async () => {
    writeFileSync(transcript, `${assistantLine(100_000)}\n`);
    const base = Date.now();
    let s = await trackAt(base);
    expect(s.tool_calls).toBe(1);
    s = await trackAt(base - 365 * DAY);
    expect(s.tool_calls).toBe(2);
    expect(s.updated_at).toBe(new Date(base - 365 * DAY).toISOString());
    s = await trackAt(base + DAY);
    expect(s.tool_calls).toBe(3);
    expect(s.used_tokens).toBe(100_000);
  });
});

describe("the transcript changing under a running monitor and track", () => {
  test("truncated, rotated, deleted and rewritten between calls: no crash, readings follow the file, nothing is counted twice", async () => {
    const now = Date.now();
    writeFileSync(transcript, `${assistantLine(140_000)}\n`);
    expect(await monitorAt(now)).toContain("CONTEXT WARNING");
    const first = await trackAt(now);
    const tokensAfterFirst = first.models["claude-sonnet-4-5-20250929"].input_tokens;

    truncateSync(transcript, 0); // truncated
    expect(await monitorAt(now)).toBe("");
    expect((await trackAt(now)).tool_calls).toBe(2);

    writeFileSync(transcript, `${assistantLine(140_000)}\n`); // the same message again after the truncation
    expect((await trackAt(now)).models["claude-sonnet-4-5-20250929"].input_tokens).toBe(tokensAfterFirst);

    renameSync(transcript, `${transcript}.1`); // rotated: a new, smaller file
    writeFileSync(transcript, `${assistantLine(20_000)}\n`);
    expect(await monitorAt(now)).toBe(""); // 10 %: back below the warning level, the debounce resets
    expect((await trackAt(now)).used_tokens).toBe(20_000);

    rmSync(transcript); // deleted
    expect(await monitorAt(now)).toBe("");
    expect((await trackAt(now)).tool_calls).toBe(5);

    writeFileSync(transcript, `${assistantLine(160_000)}\n`); // rewritten, now critical: fires at once after the reset
    expect(await monitorAt(now)).toContain("CONTEXT CRITICAL");
  });

  test("truncated, rotated or deleted while the binary reads a 30 MB transcript: exit 0 and valid output every time", async () => {
    const rng = rngFor("time/race");
    const big = `${`${JSON.stringify({ type: "user", message: { content: "x".repeat(4000) } })}\n`.repeat(30 * 256)}${assistantLine(150_000)}\n`;
    const input = JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: sb.project,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: {},
      tool_response: {},
    });
    for (let i = 0; i < 12; i++) {
      writeFileSync(transcript, big);
      const run = runCtx(["monitor"], {
        stdin: input,
        env: { ...sb.env, CTX_MONITOR_TAIL_BYTES: String(64 * 1024 * 1024) },
        cwd: sb.project,
      });
      await Bun.sleep(rng.next() * 15);
      const action = i % 3;
      if (action === 0) truncateSync(transcript, rng.int(big.length));
      else if (action === 1)
        renameSync(transcript, `${transcript}.old`), appendFileSync(transcript, `${assistantLine(10_000)}\n`);
      else rmSync(transcript);
      const r = await run;
      expect({ i, code: r.code, stderr: r.stderr, contract: checkMonitor(r.stdout) }).toEqual({
        i,
        code: 0,
        stderr: "",
        contract: undefined,
      });
    }
  }, 60_000);
});
