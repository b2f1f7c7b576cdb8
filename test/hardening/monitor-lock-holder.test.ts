/**
 * Issue 32, item 12: a live holder of the monitor's debounce lock silenced the warning. The old code
 * took a lock still held when its wait ended for another monitor call of the same moment "which
 * decides", and stayed quiet: 8 of 8 monitors at 76 % printed nothing, so CONTEXT CRITICAL never
 * reached the agent. Now a monitor that cannot take the lock in time warns without its debounce.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { makeSandbox, waitForStrays, type Sandbox } from "./sandbox.ts";

const SID = "held-session";
let sb: Sandbox;
let holder: ReturnType<typeof Bun.spawn> | undefined;
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", NO_COLOR: "1" });
  // 76 % used: CRITICAL (75 %).
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: 76,
      remaining_percentage: 24,
      timestamp: Date.now() / 1000,
      used_tokens: 152_000,
      context_window_size: 200_000,
      model: "claude-sonnet-4-5",
    }),
  );
});
afterEach(async () => {
  holder?.kill(9);
  await holder?.exited;
  holder = undefined;
  await waitForStrays(sb.dir);
  sb.cleanup();
});

test("8 monitors at 76 % behind a live holder of the debounce lock: each one warns CONTEXT CRITICAL", async () => {
  const monitorDir = join(sb.project, ".ctx", "state", "monitor");
  mkdirSync(monitorDir, { recursive: true });
  const lock = join(monitorDir, `${SID}.json.lock`);
  holder = Bun.spawn([process.execPath, join(import.meta.dir, "lock-holder.ts"), lock], { stdout: "pipe" });
  const first = await (holder.stdout as ReadableStream<Uint8Array>).getReader().read();
  expect(new TextDecoder().decode(first.value)).toBe("locked\n");
  const calls = Array.from({ length: 8 }, (_, i) =>
    Bun.spawn([CTX_BIN, "monitor"], {
      stdin: new Blob([
        JSON.stringify({
          session_id: SID,
          transcript_path: sb.transcript,
          cwd: sb.project,
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: { command: `echo ${i}` },
          tool_response: { stdout: `${i}\n` },
        }),
      ]),
      stdout: "pipe",
      stderr: "pipe",
      env: sb.env,
      cwd: sb.project,
    }),
  );
  const outs = await Promise.all(calls.map((p) => new Response(p.stdout).text()));
  expect(await Promise.all(calls.map((p) => p.exited))).toEqual(Array(8).fill(0));
  for (const out of outs) {
    const doc = JSON.parse(out);
    expect(doc.hookSpecificOutput.hookEventName).toBe("PostToolUse");
    expect(doc.hookSpecificOutput.additionalContext).toContain("CONTEXT CRITICAL");
  }
}, 60_000);
