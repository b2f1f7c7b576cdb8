/**
 * Absurd figures (1e308, negative, out of range, non-numbers) are clamped or
 * rejected where input is parsed: they never reach the status line, the
 * monitor's warning, the state, or `ctx status`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInproc } from "./inproc.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeAll(() => (sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" })));
afterAll(() => sb.cleanup());

const ABSURD = [1e308, -1e308, -5, 101, 1e21, Number.MAX_SAFE_INTEGER * 4];
/** What must never show: exponents, Infinity/NaN, negative or >100 percentages, "-" token counts. */
function sane(out: string): void {
  expect(out).not.toMatch(/e\+\d|Infinity|NaN|undefined/);
  expect(out).not.toMatch(/-\d+(\.\d+)?%/);
  for (const m of out.matchAll(/(\d+(?:\.\d+)?)%/g)) expect(Number(m[1])).toBeLessThanOrEqual(100);
}
const run = (argv: string[], stdin: unknown) =>
  runInproc(argv, {
    env: sb.env,
    cwd: sb.project,
    stdin: Buffer.from(typeof stdin === "string" ? stdin : JSON.stringify(stdin)),
  });

describe("statusline", () => {
  test.each(ABSURD)("used_percentage %p: the line and the bridge stay sane", async (v) => {
    const sid = `st-${String(v).replace(/[^0-9a-z]/gi, "_")}`;
    const r = await run(["statusline"], {
      session_id: sid,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet" },
      workspace: { project_dir: sb.project },
      context_window: { used_percentage: v, context_window_size: v, current_usage: { input_tokens: v } },
    });
    expect(r.code).toBe(0);
    sane(r.stdout);
    let bridge: Record<string, number> | undefined;
    try {
      bridge = JSON.parse(readFileSync(join(sb.env.TMPDIR!, `claude-ctx-${sid}.json`), "utf8"));
    } catch {
      bridge = undefined; // no usable figure: no bridge at all is fine
    }
    if (bridge) {
      expect(bridge.used_pct).toBeGreaterThanOrEqual(0);
      expect(bridge.used_pct).toBeLessThanOrEqual(100);
      expect(bridge.context_window_size).toBeLessThan(1e9);
    }
  });
});

describe("monitor and track", () => {
  test.each(ABSURD)("a bridge saying used_pct %p: no absurd warning, a sane state, a sane ctx status", async (v) => {
    const sid = `mo-${String(v).replace(/[^0-9a-z]/gi, "_")}`;
    writeFileSync(
      join(sb.env.TMPDIR!, `claude-ctx-${sid}.json`),
      JSON.stringify({
        session_id: sid,
        used_pct: v,
        remaining_percentage: v,
        timestamp: Date.now() / 1000,
        used_tokens: v,
        context_window_size: v,
      }),
    );
    const hook = { session_id: sid, cwd: sb.project, hook_event_name: "PostToolUse", tool_name: "Bash" };
    const m = await run(["monitor"], hook);
    expect(m.code).toBe(0);
    sane(m.stdout);
    const t = await run(["track"], hook);
    expect(t.code).toBe(0);
    sane(t.stdout);
    const state = JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", `${sid}.json`), "utf8"));
    for (const k of ["used_pct", "peak_pct"]) expect(state[k]).toBeLessThanOrEqual(100);
    for (const k of ["used_pct", "peak_pct", "used_tokens", "window_size"]) expect(state[k]).toBeGreaterThanOrEqual(0);
    expect(state.used_tokens).toBeLessThan(1e9);
    const s = await run(["status", "--all"], "");
    sane(s.stdout);
  });

  test("track's plain mode: absurd usage figures count as nothing", async () => {
    const r = await runInproc(
      ["track", "--session", "plain-absurd", "--usage", '{"input_tokens":1e308,"output_tokens":-5}'],
      {
        env: sb.env,
        cwd: sb.project,
        stdin: new Uint8Array(),
      },
    );
    expect(r.code).toBe(0);
    const state = JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", "plain-absurd.json"), "utf8"));
    expect(state.used_tokens).toBe(0);
    expect(JSON.stringify(state)).not.toMatch(/e\+|null,\s*"peak/);
  });

  test("a state file carrying 1e308 reads back sane", async () => {
    const dir = join(sb.project, ".ctx", "state", "sessions");
    mkdirSync(dir, { recursive: true });
    const sid = "planted-absurd";
    writeFileSync(
      join(dir, `${sid}.json`),
      JSON.stringify({
        version: 1,
        session_id: sid,
        project: sb.project,
        used_pct: 1e308,
        peak_pct: -3,
        used_tokens: 1e308,
        window_size: -1,
        tool_calls: 1e308,
      }),
    );
    const r = await run(["track"], {
      session_id: sid,
      cwd: sb.project,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
    });
    expect(r.code).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, `${sid}.json`), "utf8"));
    expect({ used: state.used_pct, peak: state.peak_pct, calls: state.tool_calls }).toEqual({
      used: 0,
      peak: 0,
      calls: 1,
    });
  });
});
