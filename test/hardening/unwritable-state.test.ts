/**
 * Hooks that cannot write their state still warn: a read-only state directory,
 * a full disk (tiny tmpfs mounts), and a state root that is a symlink (which
 * ctx refuses to write through). The monitor warns on every call (no debounce
 * can be kept) and track's AUTO-PAUSE systemMessage still shows.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { canMount, fillUp, mountTmpfs, remountReadOnly, unmount } from "./mount.ts";
import { makeSandbox, waitForStrays, type Sandbox } from "./sandbox.ts";

const SID = "unw-session";
let sb: Sandbox;
let mnt: string;
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" });
  mnt = join(sb.dir, "mnt");
});
afterEach(async () => {
  await waitForStrays(sb.dir);
  unmount(mnt);
  sb.cleanup();
});

const hook = () =>
  JSON.stringify({
    session_id: SID,
    cwd: sb.project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "" },
  });

function bridge(tmp: string, used: number): void {
  mkdirSync(tmp, { recursive: true });
  writeFileSync(
    join(tmp, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: used,
      remaining_percentage: 100 - used,
      timestamp: Date.now() / 1000,
      used_tokens: used * 2000,
      context_window_size: 200000,
    }),
  );
}

/** monitor twice (both warn: no debounce was stored), then track (its AUTO-PAUSE message). */
async function expectWarnings(env: Record<string, string>): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const m = await runCtx(["monitor"], { stdin: hook(), env, cwd: sb.project, countWaits: true });
    expect({ i, code: m.code, stderr: m.stderr }).toEqual({ i, code: 0, stderr: "" });
    expect(m.stdout).toContain("CONTEXT CRITICAL");
    expect(m.waited!.sleptMs).toBeLessThan(3000);
  }
  const t = await runCtx(["track"], { stdin: hook(), env, cwd: sb.project, countWaits: true });
  expect({ code: t.code, stderr: t.stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(t.stdout).systemMessage).toContain("AUTO-PAUSE");
  expect(t.waited!.sleptMs).toBeLessThan(3000);
}

describe("state that cannot be written", () => {
  test("a symlinked .ctx: nothing is written through it, and the hooks still warn", async () => {
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(sb.project, ".ctx"));
    bridge(sb.env.TMPDIR!, 92);
    await expectWarnings(sb.env);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test.skipIf(!canMount)(
    "a read-only state directory: monitor warns on every call, track shows AUTO-PAUSE",
    async () => {
      mountTmpfs(mnt, 64);
      mkdirSync(join(mnt, "ctx"));
      bridge(join(mnt, "tmp"), 92);
      remountReadOnly(mnt);
      await expectWarnings({
        ...sb.env,
        CTX_DIR: join(mnt, "ctx"),
        TMPDIR: join(mnt, "tmp"),
        XDG_STATE_HOME: join(mnt, "state"),
      });
    },
    30_000,
  );

  test.skipIf(!canMount)(
    "a full disk: monitor warns on every call, track shows AUTO-PAUSE",
    async () => {
      mountTmpfs(mnt, 64);
      mkdirSync(join(mnt, "ctx"));
      bridge(join(mnt, "tmp"), 92);
      fillUp(mnt);
      await expectWarnings({
        ...sb.env,
        CTX_DIR: join(mnt, "ctx"),
        TMPDIR: join(mnt, "tmp"),
        XDG_STATE_HOME: join(mnt, "state"),
      });
    },
    30_000,
  );
});
