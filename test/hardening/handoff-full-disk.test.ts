/**
 * The handoff on a full disk (a tiny tmpfs holding the state root): CONTEXT CRITICAL never claims a summary
 * that could not be written. The background finalize fails with ENOSPC, cannot even note why next to the
 * state, and the next CRITICAL says the summary could not be written; `ctx doctor`'s error log has ENOSPC.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { canMount, fillUp, mountTmpfs, unmount } from "./mount.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

const SID = "full-disk-session";
let sb: Sandbox;
let mnt: string;
let env: Record<string, string>;
beforeEach(() => {
  sb = makeSandbox();
  mnt = join(sb.dir, "mnt");
  // Only the state root is on the full disk: the bridge and the error log are elsewhere.
  env = { ...sb.env, CTX_DIR: join(mnt, "ctx"), CTX_MONITOR_DEBOUNCE_CALLS: "1", CTX_DEBUG: "1" };
  mkdirSync(env.TMPDIR!, { recursive: true });
});
afterEach(() => {
  unmount(mnt);
  sb.cleanup();
});

function bridge(usedPct: number): void {
  writeFileSync(
    join(env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: usedPct,
      remaining_percentage: 100 - usedPct,
      timestamp: Date.now() / 1000,
      used_tokens: usedPct * 2000,
      context_window_size: 200000,
    }),
  );
}
const failing = () =>
  JSON.stringify({
    session_id: SID,
    transcript_path: sb.transcript,
    cwd: sb.project,
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "make" },
    error: "Exit code 2",
  });
async function critical(): Promise<string> {
  const r = await runCtx(["monitor"], { stdin: failing(), env, cwd: sb.project });
  expect(r.code).toBe(0);
  const text = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
  expect(text).toStartWith("CONTEXT CRITICAL: 80%");
  return text;
}

describe.skipIf(!canMount)("the handoff on a full disk", () => {
  test("no CRITICAL claims the summary; the one after the failed finalize says it could not be written", async () => {
    mountTmpfs(mnt, 256);
    bridge(20);
    const start = JSON.stringify({ session_id: SID, transcript_path: sb.transcript, cwd: sb.project });
    const started = await runCtx(["track"], {
      stdin: start.replace(/}$/, ',"hook_event_name":"SessionStart","source":"startup"}'),
      env,
      cwd: sb.project,
    });
    expect(started.code).toBe(0);
    fillUp(mnt);
    bridge(80);
    const first = await critical();
    expect(first).not.toContain("The handoff summary is written");
    // The background finalize fails (ENOSPC); the error log (not on the full disk) says so.
    const log = join(env.XDG_STATE_HOME!, "ctx", "errors.log");
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !(existsSync(log) && readFileSync(log, "utf8").includes("finalize:")))
      await Bun.sleep(100);
    expect(readFileSync(log, "utf8")).toMatch(/finalize: .*(ENOSPC|no space)/i);
    const sessions = join(mnt, "ctx", "sessions");
    expect(existsSync(sessions) ? readdirSync(sessions).filter((n) => n.startsWith("summary-")) : []).toEqual([]);
    const next = await critical();
    expect(next).toContain("The handoff summary could not be written (");
    expect(next).not.toContain("The handoff summary is written");
  }, 60_000);
});
