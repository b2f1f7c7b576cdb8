import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { assistantLine } from "../helpers/transcript.ts";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
let transcript: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
  transcript = join(t.dir, "t.jsonl");
});
afterEach(() => t.cleanup());

function hook(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "s1",
    transcript_path: transcript,
    cwd: project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "" },
    ...over,
  });
}
function bridge(usedPct: number, ageS = 0, sid = "s1"): void {
  writeFileSync(
    join(env.TMPDIR!, `claude-ctx-${sid}.json`),
    JSON.stringify({
      session_id: sid,
      used_pct: usedPct,
      remaining_percentage: 100 - usedPct,
      timestamp: Math.floor(Date.now() / 1000) - ageS,
      used_tokens: usedPct * 2000,
      context_window_size: 200000,
    }),
  );
}
/** The transcript line of a request that called one Bash tool (`toolId`), at `used` tokens and time `at`. */
function requestLine(used: number, toolId: string, at: number, model: string): string {
  return assistantLine(used, {
    timestamp: new Date(at).toISOString(),
    message: {
      id: `msg_${toolId}`,
      model,
      role: "assistant",
      usage: { input_tokens: 10, cache_read_input_tokens: used - 10, output_tokens: 1 },
      content: [{ type: "tool_use", id: toolId, name: "Bash", input: {} }],
    },
  });
}
async function monitor(input = hook(), extraEnv: Record<string, string> = {}) {
  const r = await runCtx(["monitor"], { stdin: input, env: { ...env, ...extraEnv } });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
  return r.stdout === "" ? undefined : JSON.parse(r.stdout);
}

describe("ctx monitor", () => {
  test("is silent below the warning level", async () => {
    bridge(60);
    expect(await monitor()).toBeUndefined();
  });

  test("warns from a fresh bridge at <= 35% remaining, echoing the event", async () => {
    bridge(66);
    const out = await monitor();
    expect(out.hookSpecificOutput.hookEventName).toBe("PostToolUse");
    expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT WARNING");
    expect(out.hookSpecificOutput.additionalContext).toContain("66%");
    expect(out.hookSpecificOutput.additionalContext).toContain("34%");
  });

  test("goes critical at <= 25% remaining", async () => {
    bridge(76);
    const out = await monitor(hook({ hook_event_name: "AfterTool" }));
    expect(out.hookSpecificOutput.hookEventName).toBe("AfterTool");
    expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL");
  });

  test("reads the transcript when there is no bridge (headless -p)", async () => {
    writeFileSync(transcript, `${assistantLine(140_000)}\n`);
    const out = await monitor();
    expect(out.hookSpecificOutput.additionalContext).toContain("70% of the context window is used, 30% remains");
  });

  test("a stale bridge is ignored in favour of the transcript", async () => {
    bridge(90, 120);
    writeFileSync(transcript, `${assistantLine(20_000)}\n`);
    expect(await monitor()).toBeUndefined();
  });

  test("a fresh bridge behind the transcript (2.1.328 runs the status line less often) gives way to it", async () => {
    bridge(60, 3); // the status line last ran 3 s ago, at 60 %
    const now = new Date().toISOString();
    writeFileSync(transcript, `${assistantLine(156_000, { timestamp: now })}\n`); // a request since then: 78 %
    const out = await monitor();
    expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL: 78%");
  });

  test("a transcript line older than the fresh bridge does not override it", async () => {
    bridge(60);
    const before = new Date(Date.now() - 5000).toISOString();
    writeFileSync(transcript, `${assistantLine(156_000, { timestamp: before })}\n`);
    expect(await monitor()).toBeUndefined();
  });

  test("a fresh bridge one request behind never wins: monitor and track read the same request", async () => {
    // The status line ran 2 s ago, at 60 %; the tool's request (78 %) reaches the transcript a moment
    // after the hook starts (the client writes it in batches). Both hooks must wait for it.
    const toolLine = (used: number, toolId: string, at: number) => requestLine(used, toolId, at, "claude-sonnet-4-5");
    for (const [cmd, toolId] of [
      ["monitor", "toolu_mmmm01"],
      ["track", "toolu_tttt01"],
    ] as const) {
      bridge(60, 2);
      writeFileSync(transcript, `${toolLine(120_000, `${toolId}a`, Date.now() - 3000)}\n`);
      const path = transcript;
      setTimeout(() => appendFileSync(path, `${toolLine(156_000, toolId, Date.now())}\n`), 100);
      const r = await runCtx([cmd], { stdin: hook({ tool_use_id: toolId }), env });
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      if (cmd === "monitor") expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL: 78%");
      else expect(out.systemMessage).toStartWith("ctx: context 78% used (156k/200k tokens)");
    }
  });

  test("under a budget, a 1M window's bridge one request behind is waited past too (budget.test.ts's race)", async () => {
    // A 1M window under the 200k budget: the bridge (2 s old) reads 129k, 12.9 % of the window, and the
    // tool's request at 131k (65.5 % of the budget: WARNING) reaches the transcript a moment later.
    writeFileSync(
      join(env.TMPDIR!, "claude-ctx-s1.json"),
      JSON.stringify({
        session_id: "s1",
        used_pct: 12.9,
        remaining_percentage: 87.1,
        timestamp: Math.floor(Date.now() / 1000) - 2,
        used_tokens: 129_000,
        context_window_size: 1_000_000,
      }),
    );
    const toolLine = (used: number, toolId: string, at: number) => requestLine(used, toolId, at, "claude-opus-4-8");
    writeFileSync(transcript, `${toolLine(129_000, "toolu_bbbb00", Date.now() - 3000)}\n`);
    const path = transcript;
    setTimeout(() => appendFileSync(path, `${toolLine(131_000, "toolu_bbbb01", Date.now())}\n`), 100);
    const out = await monitor(hook({ tool_use_id: "toolu_bbbb01" }), { CTX_CONTEXT_BUDGET: "200k" });
    expect(out?.hookSpecificOutput.additionalContext).toStartWith("CONTEXT WARNING");
  });

  test("debounces: first at once, then every 5th tool use, escalation at once, reset below warning", async () => {
    bridge(70);
    const seen: string[] = [];
    for (let i = 0; i < 7; i++) seen.push((await monitor())?.hookSpecificOutput.additionalContext.split(":")[0] ?? "-");
    expect(seen).toEqual(["CONTEXT WARNING", "-", "-", "-", "-", "CONTEXT WARNING", "-"]);
    bridge(80);
    expect((await monitor())?.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL");
    expect(await monitor()).toBeUndefined();
    bridge(30);
    expect(await monitor()).toBeUndefined();
    bridge(70);
    expect((await monitor())?.hookSpecificOutput.additionalContext).toStartWith("CONTEXT WARNING");
  });

  test("thresholds and debounce come from config and env", async () => {
    mkdirSync(join(project, ".ctx"), { recursive: true });
    writeFileSync(join(project, ".ctx", "config.yaml"), "monitor:\n  warning_remaining: 50\n  debounce_calls: 1\n");
    bridge(55);
    expect(await monitor()).toBeDefined();
    expect(await monitor()).toBeDefined();
    expect(await monitor(hook(), { CTX_MONITOR_WARNING_REMAINING: "off" })).toBeUndefined();
  });

  test("a broken config file falls back to defaults", async () => {
    mkdirSync(join(env.XDG_CONFIG_HOME!, "ctx"), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, "ctx", "config.yaml"), "monitor: [unclosed\n  : :");
    bridge(70);
    expect((await monitor())?.hookSpecificOutput.additionalContext).toStartWith("CONTEXT WARNING");
  });

  test.each([
    ["another event", hook({ hook_event_name: "Stop" })],
    ["an unsafe session id", hook({ session_id: "../x" })],
    ["garbage", "\u0000\u0001{{{"],
    ["an array", "[1,2]"],
    ["nothing", ""],
  ])("prints nothing for %s", async (_name, input) => {
    bridge(90);
    expect(await monitor(input)).toBeUndefined();
  });

  test("an unsafe session id touches no file", async () => {
    writeFileSync(transcript, `${assistantLine(190_000)}\n`);
    await monitor(hook({ session_id: "../../x" }));
    expect(existsSync(join(project, ".ctx"))).toBe(false);
  });

  test("a state directory that cannot be written: exits 0 and warns on every call (no debounce can be kept)", async () => {
    writeFileSync(join(project, ".ctx"), "a file where a directory should be");
    bridge(70);
    for (let i = 0; i < 2; i++)
      expect((await monitor())?.hookSpecificOutput.additionalContext).toContain("CONTEXT WARNING");
  });

  test("under CTX_DEBUG, problems are reported on stderr only", async () => {
    writeFileSync(join(project, ".ctx"), "not a dir");
    bridge(70);
    const r = await runCtx(["monitor"], { stdin: hook(), env: { ...env, CTX_DEBUG: "1" } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain("CONTEXT WARNING");
    expect(r.stderr).toContain("debounce not written");
  });

  test("16 simultaneous tool calls count exactly: warnings at calls 1, 6, 11, 16", async () => {
    bridge(70);
    const runs = await Promise.all(Array.from({ length: 16 }, () => runCtx(["monitor"], { stdin: hook(), env })));
    expect(runs.every((r) => r.code === 0)).toBe(true);
    expect(runs.filter((r) => r.stdout.includes("CONTEXT WARNING"))).toHaveLength(4);
    const state = JSON.parse(readFileSync(join(project, ".ctx", "state", "monitor", "s1.json"), "utf8"));
    expect(state).toMatchObject({ last_level: "warning", calls_since: 0, fired: 4 });
    expect(readdirSync(join(project, ".ctx", "state", "monitor")).filter((f) => f.endsWith(".lock"))).toEqual([]);
  });
});

describe("ctx monitor without a bridge", () => {
  test("waits for the transcript to show the request that called the tool", async () => {
    writeFileSync(transcript, `${assistantLine(100_000)}\n`);
    const late = {
      ...JSON.parse(assistantLine(140_000)),
      message: {
        ...JSON.parse(assistantLine(140_000)).message,
        content: [{ type: "tool_use", id: "toolu_late1", name: "Bash", input: {} }],
      },
    };
    setTimeout(() => appendFileSync(transcript, `${JSON.stringify(late)}\n`), 80);
    const out = await monitor(hook({ tool_use_id: "toolu_late1" }));
    expect(out?.hookSpecificOutput.additionalContext).toContain("70% of the context window is used");
  });

  test("waits for a transcript that does not exist yet (a session's first hook), but only once if it never comes", async () => {
    const late = join(t.dir, "late.jsonl");
    setTimeout(
      () =>
        writeFileSync(
          late,
          `${JSON.stringify({ ...JSON.parse(assistantLine(140_000)), message: { ...JSON.parse(assistantLine(140_000)).message, content: [{ type: "tool_use", id: "toolu_first1", name: "Bash", input: {} }] } })}\n`,
        ),
      80,
    );
    expect(
      (await monitor(hook({ tool_use_id: "toolu_first1", transcript_path: late })))?.hookSpecificOutput
        .additionalContext,
    ).toContain("70%");

    const never = hook({ session_id: "s2", tool_use_id: "toolu_missing", transcript_path: join(t.dir, "nope.jsonl") });
    // the waits as ctx counts them (CTX_DEBUG=waits): the first call waits for the transcript, the next does not
    const waitEnv = { ...env, CTX_MONITOR_TRANSCRIPT_WAIT_MS: "200" };
    const first = await runCtx(["monitor"], { stdin: never, env: waitEnv, countWaits: true });
    expect({ code: first.code, stdout: first.stdout, stderr: first.stderr }).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect(first.waited!.sleptMs).toBeGreaterThan(0);
    const second = await runCtx(["monitor"], { stdin: never, env: waitEnv, countWaits: true });
    expect({ code: second.code, stdout: second.stdout }).toEqual({ code: 0, stdout: "" });
    expect(second.waited!.sleptMs).toBe(0); // remembered: transcripts are off for this session
  });

  test("gives up waiting after monitor.transcript_wait_ms and uses what is there", async () => {
    writeFileSync(transcript, `${assistantLine(140_000)}\n`);
    const r = await runCtx(["monitor"], {
      stdin: hook({ tool_use_id: "toolu_never" }),
      env: { ...env, CTX_MONITOR_TRANSCRIPT_WAIT_MS: "150" },
      countWaits: true,
    });
    expect(r.waited!.sleptMs).toBeGreaterThan(0); // it waited (as ctx counts it), then gave up
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain("70%");
  });
});

describe("ctx monitor ends a ctx run leg at the restart level, and nothing else", () => {
  test("the leg's own session at respawn.restart_at: continue false, beside the warning", async () => {
    bridge(92);
    const out = await monitor(hook(), { CTX_RUN_SESSION: "s1" });
    expect(out.continue).toBe(false);
    expect(out.stopReason).toBe(
      "ctx run: context at 92% (restart at 90%); the run goes on in a fresh leg from the summary",
    );
    expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL");
  });

  test("a restart level below the warning level stops the leg without a warning", async () => {
    bridge(60);
    const out = await monitor(hook(), { CTX_RUN_SESSION: "s1", CTX_RESPAWN_RESTART_AT: "55" });
    expect(out).toEqual({
      continue: false,
      stopReason: "ctx run: context at 60% (restart at 55%); the run goes on in a fresh leg from the summary",
    });
  });

  test("another session, a session outside ctx run, or Gemini CLI's AfterTool is never stopped", async () => {
    const cases: { sid: string; over: Record<string, unknown>; extra: Record<string, string> }[] = [
      { sid: "s2", over: {}, extra: { CTX_RUN_SESSION: "another-session" } },
      { sid: "s3", over: {}, extra: {} },
      { sid: "s4", over: { hook_event_name: "AfterTool" }, extra: { CTX_RUN_SESSION: "s4" } },
    ];
    for (const c of cases) {
      bridge(95, 0, c.sid);
      const out = await monitor(hook({ session_id: c.sid, ...c.over }), c.extra);
      expect(out.continue).toBeUndefined();
      expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL");
    }
  });
});
