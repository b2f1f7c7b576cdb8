import { describe, expect, test } from "bun:test";
import { initialState, type SessionState } from "../../../src/core/track/state.ts";
import { decodeHook } from "../../../src/core/agents/index.ts";
import { handoffRefreshPending, trackStep, type TrackEvent } from "../../../src/core/track/step.ts";

const T = { warning: 65, critical: 75, auto_pause: 90 };
const ISO = "2026-01-01T00:00:00.000Z";
const fresh = (): SessionState => initialState("s1", "/p", "s1", ISO);
const at = (pct: number) => ({ usedTokens: pct * 2000, windowSize: 200_000, usedPct: pct, model: "m" });
const ev = (event: string, pct?: number, input: Record<string, unknown> = {}): TrackEvent => ({
  event,
  iso: ISO,
  input,
  reading: pct === undefined ? undefined : at(pct),
});

/** Feeds events in order and returns every step result. */
function run(events: TrackEvent[], start = fresh()) {
  let s = start;
  return events.map((e) => {
    const r = trackStep(s, e, T, "pause");
    s = r.state;
    return r;
  });
}

describe("trackStep()", () => {
  test("counts tool calls from PostToolUse and PostToolUseFailure only", () => {
    const rs = run([ev("PostToolUse", 10), ev("PostToolUseFailure", 10), ev("Stop", 10), ev("UserPromptSubmit", 10)]);
    expect(rs.at(-1)!.state.tool_calls).toBe(2);
    expect(rs.at(-1)!.state.last_stop_at).toBe(ISO);
  });

  test("reports each level once while climbing, and again after a drop", () => {
    const rs = run([ev("Stop", 66), ev("Stop", 67), ev("Stop", 80), ev("Stop", 30), ev("Stop", 70)]);
    expect(rs.map((r) => r.report)).toEqual(["warning", null, "critical", null, "warning"]);
    expect(rs[3]!.state.threshold_reached).toBeNull();
    expect(rs.at(-1)!.state.peak_pct).toBe(80);
  });

  test("auto-pause starts at 90% and captures tool calls, prompts and responses", () => {
    const rs = run([
      ev("PostToolUse", 80, { tool_name: "Read", tool_input: { file_path: "/a" } }),
      ev("PostToolUse", 91, { tool_name: "Edit", tool_input: { file_path: "/a", old_string: "x".repeat(1000) } }),
      ev("UserPromptSubmit", 91, { prompt: "go on" }),
      ev("Stop", 92, { last_assistant_message: "done" }),
    ]);
    expect(rs[0]!.pause).toEqual([]);
    expect(rs[1]!.state.auto_pause_active).toBe(true);
    expect(rs[1]!.pause.map((p) => p.type)).toEqual(["pause_started", "tool_call"]);
    const call = rs[1]!.pause[1]!;
    expect(call.context_percentage).toBe(91);
    expect(String((call.data.args_summary as Record<string, unknown>).old_string).length).toBeLessThan(260);
    expect(rs[2]!.pause[0]).toMatchObject({ type: "user_message", session_id: "s1", data: { summary: "go on" } });
    expect(rs[3]!.pause[0]).toMatchObject({ type: "assistant_response", data: { summary: "done" } });
  });

  test("a drop below auto_pause ends the pause", () => {
    const boundary = { ...ev("SessionStart", 20, { source: "compact" }), reading: { ...at(20), compacted: true } };
    const rs = run([ev("Stop", 91), boundary]);
    expect(rs[1]!.state.auto_pause_active).toBe(false);
    expect(rs[1]!.pause.map((p) => p.type)).toEqual(["pause_ended"]);
  });

  test("PreCompact counts a compaction, and the next different usage completes it", () => {
    const rs = run([ev("PostToolUse", 91), ev("PreCompact", 91, { trigger: "auto" })]);
    expect(rs[1]!.compactionStart).toEqual({ tokens_before: 182000, trigger: "auto", level: "auto_pause" });
    expect(rs[1]!.resetDebounce).toBe(true);
    expect(rs[1]!.state.threshold_reached).toBeNull();
    expect(rs[1]!.finalize).toBe(true);
    const pending = { ...rs[1]!.state, pending_compaction: { path: "/e.json", tokens_before: 182000 } };
    const [same, after] = run([ev("PostToolUse", 91), ev("SessionStart", 12)], pending);
    expect(same!.compactionDone).toBeUndefined();
    expect(after!.compactionDone).toEqual({ path: "/e.json", tokens_after: 24000 });
    expect(after!.state.pending_compaction).toBeNull();
    expect(after!.state.compactions).toBe(1);
  });

  test("every compaction is recorded with its trigger: manual, auto inside a turn, idle between turns", () => {
    const manual = run([ev("UserPromptSubmit", 70), ev("PreCompact", 70, { trigger: "manual" })]);
    expect(manual[1]!.compactionStart).toMatchObject({ trigger: "manual", level: "warning" });
    const auto = run([ev("UserPromptSubmit", 70), ev("PreCompact", 70, { trigger: "auto" })]);
    expect(auto[1]!.compactionStart?.trigger).toBe("auto");
    // the client compacted a session whose last turn had ended: an idle compaction
    const idle = run([ev("Stop", 70), ev("PreCompact", 70, { trigger: "auto" })]);
    expect(idle[1]!.compactionStart?.trigger).toBe("idle");
  });

  test("a compaction without PreCompact (SessionStart compact) is recorded; level and debounce start over", () => {
    const rs = run([ev("Stop", 80), ev("SessionStart", 80, { source: "compact" }), ev("PostToolUse", 66)]);
    expect(rs[0]!.state.threshold_reached).toBe("critical");
    // the SessionStart's reading is still the request before the compaction: not news, no level from it
    expect(rs[1]!.compactionStart).toEqual({ tokens_before: 160000, trigger: "idle", level: "critical" });
    expect(rs[1]!.report).toBeNull();
    expect(rs[1]!.resetDebounce).toBe(true);
    expect(rs[1]!.state.threshold_reached).toBeNull();
    expect(rs[1]!.state.compactions).toBe(1);
    // the ladder starts over: WARNING is reported again
    expect(rs[2]!.report).toBe("warning");
    // after a PreCompact, its SessionStart adds no second record; the boundary's figure completes it
    const seen = run([ev("UserPromptSubmit", 80), ev("PreCompact", 80, { trigger: "auto" })]);
    const pending = { ...seen[1]!.state, pending_compaction: { path: "/e.json", tokens_before: 160000 } };
    const boundary = { ...ev("SessionStart", 10, { source: "compact" }), reading: { ...at(10), compacted: true } };
    const [after] = run([boundary], pending);
    expect(after!.compactionStart).toBeUndefined();
    expect(after!.compactionDone).toEqual({ path: "/e.json", tokens_after: 20000 });
    expect(after!.state.compactions).toBe(1);
  });

  test("a boundary without its size (no postTokens, as 2.1.197 writes it) leaves tokens_after to the next usage", () => {
    const seen = run([ev("UserPromptSubmit", 71), ev("PreCompact", 71, { trigger: "manual" })]);
    const pending = { ...seen[1]!.state, pending_compaction: { path: "/e.json", tokens_before: 142000 } };
    const unsized = { ...ev("SessionStart", 0, { source: "compact" }), reading: { ...at(0), compacted: true } };
    const [boundary, next] = run([unsized, ev("PostToolUse", 10)], pending);
    expect(boundary!.compactionDone).toBeUndefined();
    expect(next!.compactionDone).toEqual({ path: "/e.json", tokens_after: 20000 });
  });

  test("a reading of 0 tokens after a compaction, not from its boundary (read before the next request), completes nothing", () => {
    const seen = run([ev("UserPromptSubmit", 71), ev("PreCompact", 71, { trigger: "manual" })]);
    const pending = { ...seen[1]!.state, pending_compaction: { path: "/e.json", tokens_before: 142000 } };
    const [early, next] = run([ev("Stop", 0), ev("PostToolUse", 10)], pending);
    expect(early!.compactionDone).toBeUndefined();
    expect(next!.compactionDone).toEqual({ path: "/e.json", tokens_after: 20000 });
  });

  test("SessionEnd finalizes with an active pause, or always / never as configured", () => {
    const low = trackStep(fresh(), ev("SessionEnd", 50), T, "pause");
    const high = trackStep(fresh(), ev("SessionEnd", 93), T, "pause");
    expect([low.finalize, high.finalize]).toEqual([false, true]);
    expect(trackStep(fresh(), ev("SessionEnd", 50), T, "always").finalize).toBe(true);
    expect(trackStep(fresh(), ev("SessionEnd", 93), T, "never").finalize).toBe(false);
  });

  test("SessionEnd writes the summary again when the session has one, or reached CRITICAL without one", () => {
    const later = "2026-01-01T00:05:00.000Z";
    const summarised = {
      ...fresh(),
      finalized_stamp: "20260101-000000",
      finalized_at: ISO,
      threshold_reached: "critical" as const,
    };
    // Written at CRITICAL: whatever came after (even the last lines of the same turn, which the client
    // may not have flushed to the transcript yet) goes into the summary the next session gets.
    expect(trackStep({ ...summarised, updated_at: later }, ev("SessionEnd"), T, "pause").finalize).toBe(true);
    expect(trackStep({ ...summarised, updated_at: ISO }, ev("SessionEnd"), T, "pause").finalize).toBe(true);
    // CRITICAL reached but no summary (its finalize failed): the end writes it.
    const unsummarised = { ...fresh(), threshold_reached: "critical" as const, updated_at: later };
    expect(trackStep(unsummarised, ev("SessionEnd"), T, "pause").finalize).toBe(true);
    const warned = { ...fresh(), threshold_reached: "warning" as const };
    expect(trackStep(warned, ev("SessionEnd"), T, "pause").finalize).toBe(false);
    // never means never; and only SessionEnd: a Stop after the summary does not finalize.
    expect(trackStep(summarised, ev("SessionEnd"), T, "never").finalize).toBe(false);
    expect(trackStep(summarised, ev("Stop"), T, "pause").finalize).toBe(false);
  });

  test("handoffRefreshPending(): until a finalize started after the session ended (or after doneSince)", () => {
    const at = (iso: string) => Date.parse(iso);
    const t0 = "2026-01-01T00:00:00.000Z";
    const t1 = "2026-01-01T00:01:00.000Z";
    const t2 = "2026-01-01T00:02:00.000Z";
    const base = { ...fresh(), finalized_stamp: "20260101-000000", threshold_reached: "critical" as const };
    // Still running (SessionEnd not seen yet), though its summary is newer than its last hook: pending.
    expect(handoffRefreshPending({ ...base, finalized_at: t1, updated_at: t0, last_event: "Stop" })).toBe(true);
    // Ended after its summary: pending; its SessionEnd's finalize (started after the end): done.
    expect(handoffRefreshPending({ ...base, finalized_at: t0, updated_at: t1, last_event: "SessionEnd" })).toBe(true);
    expect(handoffRefreshPending({ ...base, finalized_at: t2, updated_at: t1, last_event: "SessionEnd" })).toBe(false);
    // SessionEnd never ran: a finalize the resume hook started at t1 counts.
    expect(handoffRefreshPending({ ...base, finalized_at: t2, updated_at: t0, last_event: "Stop" }, at(t1))).toBe(
      false,
    );
    expect(handoffRefreshPending({ ...base, finalized_at: t0, updated_at: t0, last_event: "Stop" }, at(t1))).toBe(true);
    // No summary and never CRITICAL: nothing to wait for.
    expect(handoffRefreshPending({ ...fresh(), last_event: "SessionEnd" })).toBe(false);
  });

  test("does not change the state it is given", () => {
    const s = fresh();
    trackStep(s, ev("PostToolUse", 95), T, "pause");
    expect(s).toEqual(fresh());
  });
});

describe("a decoded hook event (decodeHook)", () => {
  test.each([
    ["AfterTool", "PostToolUse"],
    ["BeforeAgent", "UserPromptSubmit"],
    ["AfterAgent", "Stop"],
    ["PreCompress", "PreCompress"], // not a compaction by itself: see "Gemini CLI's PreCompress"
    ["SessionStart", "SessionStart"],
    ["SessionEnd", "SessionEnd"],
    ["PostToolUse", "PostToolUse"],
  ] as const)("Gemini CLI's %s is tracked as %s", (gemini, claude) => {
    expect(decodeHook({ hook_event_name: gemini })!.event).toBe(claude);
  });
  test("AfterAgent's response becomes the last assistant message; Claude Code input is untouched", () => {
    expect(decodeHook({ hook_event_name: "AfterAgent", prompt_response: "Done." })!.input).toMatchObject({
      hook_event_name: "Stop",
      last_assistant_message: "Done.",
    });
    const input = { hook_event_name: "Stop", last_assistant_message: "x" };
    expect(decodeHook(input)!.input).toBe(input);
  });
});

describe("subagent tool calls", () => {
  test("a tool hook with agent_id counts in subagent_tool_calls, not tool_calls", () => {
    const sub = { agent_id: "ac32422becd6dd6c3", agent_type: "general-purpose" };
    const rs = run([
      ev("PostToolUse", 10),
      ev("PostToolUse", 10, sub),
      ev("PostToolUseFailure", 10, sub),
      ev("PostToolUse", 10, { agent_id: null }),
    ]);
    expect(rs.at(-1)!.state.tool_calls).toBe(2);
    expect(rs.at(-1)!.state.subagent_tool_calls).toBe(2);
  });
});

describe("Gemini CLI's PreCompress (fires before every request)", () => {
  const tok = (n: number) => ({ usedTokens: n, windowSize: 1_048_576, usedPct: Math.round((n / 1_048_576) * 100) });
  const g = (event: string, n: number, input: Record<string, unknown> = {}): TrackEvent => ({
    event,
    iso: ISO,
    input,
    reading: tok(n),
  });
  test("every turn without a compression records nothing", () => {
    const rs = run([
      g("PreCompress", 100_000, { trigger: "auto" }),
      g("PostToolUse", 120_000),
      g("PreCompress", 120_000, { trigger: "auto" }),
      g("Stop", 130_000),
    ]);
    expect(rs.some((r) => r.compression || r.compactionStart || r.finalize)).toBe(false);
    expect(rs.at(-1)!.state.compactions).toBe(0);
    expect(rs.at(-1)!.state.pending_compress).toBeNull();
  });
  test("a fall of the next reading is one compression; while paused it starts one finalize", () => {
    const rs = run([
      g("Stop", 960_000), // 92 %: auto-pause
      g("PreCompress", 960_000, { trigger: "auto" }),
      g("PostToolUse", 200_000),
      g("PreCompress", 200_000, { trigger: "auto" }),
      g("Stop", 210_000),
    ]);
    expect(rs[0]!.state.auto_pause_active).toBe(true);
    expect(rs[2]!.compression).toEqual({ tokens_before: 960_000, tokens_after: 200_000, trigger: "auto" });
    expect(rs.filter((r) => r.finalize)).toHaveLength(1);
    expect(rs[2]!.finalize).toBe(true);
    expect(rs[2]!.pause.map((p) => p.type)).toEqual(["compaction", "pause_ended"]);
    expect(rs.at(-1)!.state.compactions).toBe(1);
  });
  test("repeated PreCompress before a reading keeps the first usage", () => {
    const rs = run([g("Stop", 500_000), g("PreCompress", 500_000), g("PreCompress", 500_000), g("Stop", 400_000)]);
    expect(rs[3]!.compression?.tokens_before).toBe(500_000);
  });
});
