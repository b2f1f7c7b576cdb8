/**
 * The plan's 5-hour window from the status-line payload: shown by the status line and ctx status, and the
 * checkpoint at limits.checkpoint_at told to the agent once per window by the monitor.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { assistantLine } from "../helpers/transcript.ts";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
  env = { ...env, NO_COLOR: "1", TZ: "UTC" };
});
afterEach(() => t.cleanup());

const SID = "0c8d5c1e-6a55-4c1b-9d1f-3f0e2b7a9c44";
const resetS = () => Math.floor(Date.now() / 1000) + 3600;

function payload(pct: number, reset: number): string {
  return JSON.stringify({
    session_id: SID,
    cwd: project,
    model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
    context_window: { context_window_size: 200000, used_percentage: 10, current_usage: { input_tokens: 20000 } },
    rate_limits: {
      five_hour: { used_percentage: pct, resets_at: reset },
      seven_day: { used_percentage: 30, resets_at: reset },
    },
  });
}

test("at 91 % of the 5-hour window: shown on the status line and in ctx status; the checkpoint reaches the agent once", async () => {
  const reset = resetS();
  const clock = new Date(reset * 1000).toISOString().slice(11, 16);
  const line = await runCtx(["statusline"], { env, stdin: payload(91, reset), cwd: project });
  expect(line.stdout).toContain(`5h 91% · resets ${clock}`);
  const transcript = join(t.dir, "t.jsonl");
  writeFileSync(transcript, `${assistantLine(20_000, { sessionId: SID })}\n`);
  const hook = JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "" },
  });
  const first = await runCtx(["monitor"], { env, stdin: hook, cwd: project });
  expect(JSON.parse(first.stdout).hookSpecificOutput.additionalContext).toStartWith(
    `USAGE CHECKPOINT: 91% of the 5-hour usage window is used (it resets at ${clock}).`,
  );
  // once per window: the next tool calls say nothing
  for (let i = 0; i < 3; i++) expect((await runCtx(["monitor"], { env, stdin: hook, cwd: project })).stdout).toBe("");
  const status = await runCtx(["status"], { env, cwd: project });
  expect(status.stdout).toContain(`plan usage: 5h 91% · resets ${clock}`);
  // a new window (a new reset) at 95 %: told again, once
  await runCtx(["statusline"], { env, stdin: payload(95, reset + 5 * 3600), cwd: project });
  expect((await runCtx(["monitor"], { env, stdin: hook, cwd: project })).stdout).toContain("USAGE CHECKPOINT: 95%");
  expect((await runCtx(["monitor"], { env, stdin: hook, cwd: project })).stdout).toBe("");
});

test("below limits.checkpoint_at nothing is told; the line still shows the window", async () => {
  const reset = resetS();
  const line = await runCtx(["statusline"], { env, stdin: payload(50, reset), cwd: project });
  expect(line.stdout).toContain("5h 50%");
  const transcript = join(t.dir, "t.jsonl");
  writeFileSync(transcript, `${assistantLine(20_000, { sessionId: SID })}\n`);
  const hook = JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: {},
    tool_response: {},
  });
  expect((await runCtx(["monitor"], { env, stdin: hook, cwd: project })).stdout).toBe("");
});
