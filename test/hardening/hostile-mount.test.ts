/**
 * A read-only state directory and a full disk (tiny tmpfs mounts): every hook
 * exits 0 and prints only what its contract allows, says what went wrong on
 * stderr only under CTX_DEBUG, and leaves the state it had intact.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { FUZZ_TARGETS } from "./fuzz-contract.ts";
import { canMount, fillUp, mountTmpfs, remountReadOnly, unmount } from "./mount.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

const SID = "mnt-session";
let sb: Sandbox;
let mnt: string;
let env: Record<string, string>;

beforeEach(() => {
  sb = makeSandbox();
  mnt = join(sb.dir, "mnt");
  env = {
    ...sb.env,
    CTX_DIR: join(mnt, "ctx"),
    TMPDIR: join(mnt, "tmp"),
    XDG_STATE_HOME: join(mnt, "state"),
    CTX_TRACK_FINALIZE_ON_END: "never",
  };
});
afterEach(() => {
  unmount(mnt);
  sb.cleanup();
});

function payload(name: string): string {
  if (name === "statusline")
    return JSON.stringify({
      session_id: SID,
      cwd: sb.project,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet" },
      workspace: { current_dir: sb.project, project_dir: sb.project },
      context_window: {
        context_window_size: 200000,
        current_usage: { input_tokens: 160000 },
        used_percentage: 80,
        remaining_percentage: 20,
      },
    });
  const event =
    name === "resume --hook"
      ? { hook_event_name: "SessionStart", source: "clear" }
      : {
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: { command: "ls" },
          tool_response: { stdout: "" },
        };
  return JSON.stringify({ session_id: SID, transcript_path: sb.transcript, cwd: sb.project, ...event });
}

function prepare(): void {
  mountTmpfs(mnt, 256); // room for the handoff's files; fillUp takes the rest
  for (const d of ["ctx/sessions", "tmp", "state"]) mkdirSync(join(mnt, d), { recursive: true });
  writeFileSync(
    join(mnt, "tmp", `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: 80,
      remaining_percentage: 20,
      timestamp: Date.now() / 1000,
      used_tokens: 160000,
      context_window_size: 200000,
    }),
  );
  writeFileSync(join(mnt, "ctx", "sessions", "summary-t-20250101-000000.md"), "# Summary\n- next step\n");
}

/** Runs every hook twice, without and with CTX_DEBUG; returns the debug stderr of each. */
async function runAll(): Promise<Record<string, string>> {
  const debugOut: Record<string, string> = {};
  for (const t of FUZZ_TARGETS) {
    const quiet = await runCtx(t.argv, { stdin: payload(t.name), env, cwd: sb.project, countWaits: true });
    expect({ cmd: t.name, code: quiet.code, stderr: quiet.stderr, contract: t.check(quiet.stdout) }).toEqual({
      cmd: t.name,
      code: 0,
      stderr: "",
      contract: undefined,
    });
    expect(quiet.waited!.sleptMs).toBeLessThan(3000); // counted by ctx: no lock waited out, no timeout hit
    const loud = await runCtx(t.argv, { stdin: payload(t.name), env: { ...env, CTX_DEBUG: "1" }, cwd: sb.project });
    expect({ cmd: t.name, code: loud.code, contract: t.check(loud.stdout) }).toEqual({
      cmd: t.name,
      code: 0,
      contract: undefined,
    });
    debugOut[t.name] = loud.stderr;
  }
  return debugOut;
}

describe.skipIf(!canMount)("hostile filesystem: mounts", () => {
  test("a read-only state directory: hooks exit 0, silent without CTX_DEBUG, report EROFS with it", async () => {
    prepare();
    remountReadOnly(mnt);
    const debugOut = await runAll();
    for (const name of ["statusline", "monitor", "track", "resume --hook"])
      expect({ name, reported: /EROFS|read-only|not writ/i.test(debugOut[name]!) }).toEqual({ name, reported: true });
  }, 60_000);

  test("a full disk: hooks exit 0, report ENOSPC under CTX_DEBUG, keep the state they had, and recover once there is space", async () => {
    prepare();
    const hook = payload("track");
    expect((await runCtx(["track"], { stdin: hook, env, cwd: sb.project })).code).toBe(0);
    expect((await runCtx(["monitor"], { stdin: payload("monitor"), env, cwd: sb.project })).stdout).toContain(
      "CONTEXT CRITICAL",
    );
    const statePath = join(mnt, "ctx", "state", "sessions", `${SID}.json`);
    // The CRITICAL monitor started the handoff's finalize in the background: let it finish first, or its
    // files (about 60 kB) take the space freed below and the last track finds the disk full again.
    const finalized = () => typeof JSON.parse(readFileSync(statePath, "utf8")).finalized_stamp === "string";
    for (const deadline = Date.now() + 15_000; !finalized() && Date.now() < deadline; ) await Bun.sleep(50);
    expect(finalized()).toBe(true);
    const stateBefore = readFileSync(statePath, "utf8");
    fillUp(mnt);
    const debugOut = await runAll();
    for (const name of ["statusline", "monitor", "track"])
      expect({ name, reported: /ENOSPC|no space/i.test(debugOut[name]!) }).toEqual({ name, reported: true });
    expect(readFileSync(statePath, "utf8")).toBe(stateBefore); // a failed atomic write leaves the old state whole
    rmSync(join(mnt, "filler"));
    const after = await runCtx(["track"], { stdin: hook, env, cwd: sb.project, countWaits: true });
    expect({ code: after.code, stderr: after.stderr }).toEqual({ code: 0, stderr: "" });
    expect(after.waited!.sleptMs).toBeLessThan(900); // no lock left behind by the failed runs to wait out
    expect(JSON.parse(readFileSync(statePath, "utf8")).tool_calls).toBe(JSON.parse(stateBefore).tool_calls + 1);
  }, 60_000);
});
