/** The leg decisions of `ctx run`: how a leg ended and what follows it. */
import { describe, expect, test } from "bun:test";
import {
  classifyLeg,
  legCount,
  nextAfter,
  type LegEnd,
  type LegRecord,
  type RunLimits,
  type RunProgress,
} from "../../../src/core/run/decide.ts";
import { doneLine, endLine } from "../../../src/core/run/report.ts";

const T0 = Date.UTC(2026, 11, 1, 14, 0, 0);
const LIMITS: RunLimits = {
  maxLegs: 3,
  maxTimeMs: 3_600_000,
  maxLimitWaitMs: 2 * 3_600_000,
  limitMarginMs: 60_000,
  backoffMs: 60_000,
};
const json = (o: object) => `${JSON.stringify(o)}\n`;

describe("classifyLeg", () => {
  test("a turn ended by ctx's hook after a tool call is stopped", () => {
    const out = json({ type: "result", subtype: "success", is_error: false, stop_reason: "tool_use", result: "" });
    expect(classifyLeg(0, out, T0)).toEqual({ kind: "stopped" });
  });
  test("a turn that ended by itself is finished, with its result", () => {
    const out = json({ subtype: "success", is_error: false, stop_reason: "end_turn", result: "All done." });
    expect(classifyLeg(0, out, T0)).toEqual({ kind: "finished", result: "All done." });
  });
  test("a 429 result with its reset text is a usage limit with the reset time", () => {
    const out = json({
      is_error: true,
      api_error_status: 429,
      result: "You've hit your session limit · resets 3:03pm (UTC)",
    });
    const end = classifyLeg(1, out, T0);
    expect(end.kind).toBe("limit");
    expect(end.kind === "limit" && end.hit.resetsAt).toBe(Date.UTC(2026, 11, 1, 15, 3));
  });
  test("an API-key 429 (no reset time) is a limit without a reset", () => {
    const out = json({ is_error: true, api_error_status: 429, result: "API Error: Request rejected (429) · x" });
    const end = classifyLeg(1, out, T0);
    expect(end).toEqual({ kind: "limit", hit: { resetsAt: undefined, text: "API Error: Request rejected (429) · x" } });
  });
  test("a non-zero exit, an error result or no JSON at all is a failure", () => {
    expect(classifyLeg(1, json({ is_error: true, result: "boom" }), T0)).toEqual({
      kind: "failed",
      detail: "claude exited 1: boom",
    });
    expect(classifyLeg(0, json({ is_error: true, subtype: "error_max_turns" }), T0)).toEqual({
      kind: "failed",
      detail: "claude reported error_max_turns",
    });
    expect(classifyLeg(0, "not json", T0).kind).toBe("failed");
    expect(classifyLeg(null, "", T0)).toEqual({ kind: "failed", detail: "claude exited on a signal" });
  });
  test("the result is the last JSON line, after anything printed before it", () => {
    const out = `warning: something\n${json({ is_error: false, stop_reason: "end_turn", result: "ok" })}`;
    expect(classifyLeg(0, out, T0)).toEqual({ kind: "finished", result: "ok" });
  });
});

const start = (): RunProgress => ({ startedAt: T0, legs: [], limitsInARow: 0, noProgress: 0 });
function after(p: RunProgress, end: LegEnd, toolCalls: number, now: number) {
  const leg: LegRecord = { n: legCount(p) + 1, end, toolCalls };
  return nextAfter({ ...p, legs: [...p.legs, leg] }, leg, now, LIMITS);
}

describe("nextAfter", () => {
  test("finished is done; failed fails", () => {
    expect(after(start(), { kind: "finished", result: "x" }, 4, T0).next).toEqual({ type: "done" });
    expect(after(start(), { kind: "failed", detail: "d" }, 4, T0).next).toEqual({ type: "failed", detail: "d" });
  });
  test("a stopped leg that worked starts the next leg from its summary", () => {
    const r = after(start(), { kind: "stopped" }, 5, T0 + 1000);
    expect(r.next).toEqual({ type: "leg", finalize: true });
    expect(r.p.noProgress).toBe(0);
  });
  test("the max-legs brake: the third stopped leg of three gives up", () => {
    let p = start();
    for (let i = 0; i < 2; i++) {
      const r = after(p, { kind: "stopped" }, 5, T0 + i);
      expect(r.next.type).toBe("leg");
      p = { ...r.p, legs: [...p.legs, { n: i + 1, end: { kind: "stopped" }, toolCalls: 5 }] };
    }
    const r = after(p, { kind: "stopped" }, 5, T0 + 3);
    expect(r.next).toMatchObject({ type: "brake", name: "max_legs" });
  });
  test("the max-time brake", () => {
    expect(after(start(), { kind: "stopped" }, 5, T0 + LIMITS.maxTimeMs).next).toMatchObject({
      type: "brake",
      name: "max_time",
    });
  });
  test("no progress: two legs in a row stopped by their first tool call halt the run", () => {
    const first = after(start(), { kind: "stopped" }, 1, T0);
    expect(first.next.type).toBe("leg");
    expect(first.p.noProgress).toBe(1);
    const p = { ...first.p, legs: [{ n: 1, end: { kind: "stopped" } as LegEnd, toolCalls: 1 }] };
    expect(after(p, { kind: "stopped" }, 0, T0 + 1).next).toMatchObject({ type: "brake", name: "no_progress" });
    // a leg that worked in between resets the count
    expect(after(p, { kind: "stopped" }, 6, T0 + 1).p.noProgress).toBe(0);
  });
  test("a limit with a reset waits until it plus the margin; a leg without tool calls starts again as it was", () => {
    const hit = { resetsAt: T0 + 10 * 60_000, text: "resets" };
    const r = after(start(), { kind: "limit", hit }, 0, T0);
    expect(r.next).toEqual({ type: "wait", ms: 10 * 60_000 + 60_000, finalize: false });
    expect(r.p.limitsInARow).toBe(1);
    expect(after(start(), { kind: "limit", hit }, 3, T0).next).toMatchObject({ type: "wait", finalize: true });
  });
  test("limits do not count as legs for --max-legs", () => {
    const p: RunProgress = {
      ...start(),
      legs: [
        { n: 1, end: { kind: "limit", hit: { text: "" } }, toolCalls: 0 },
        { n: 1, end: { kind: "limit", hit: { text: "" } }, toolCalls: 0 },
      ],
    };
    expect(legCount(p)).toBe(0);
  });
  test("without a reset time the wait backs off, doubling with each limit in a row", () => {
    const hit = { text: "Request rejected (429)" };
    const waits: number[] = [];
    let p = start();
    for (let i = 0; i < 3; i++) {
      const r = after(p, { kind: "limit", hit }, 0, T0);
      if (r.next.type === "wait") waits.push(r.next.ms);
      p = r.p;
    }
    expect(waits).toEqual([60_000, 120_000, 240_000]);
  });
  test("a wait past --max-limit-wait gives up at the limit; past --max-time at the brake", () => {
    const far = { resetsAt: T0 + 3 * 3_600_000, text: "" };
    expect(after(start(), { kind: "limit", hit: far }, 0, T0).next.type).toBe("limit_gave_up");
    const near = { resetsAt: T0 + 3_590_000, text: "" };
    expect(after(start(), { kind: "limit", hit: near }, 0, T0).next).toMatchObject({ type: "brake", name: "max_time" });
  });
});

describe("a leg ended by --max-time", () => {
  test("is a brake, not a failure: the run gives up at max_time", () => {
    const p = { startedAt: 0, legs: [], limitsInARow: 0, noProgress: 0 };
    const leg = {
      n: 1,
      end: { kind: "brake", detail: "the wall time ran out during the leg (--max-time)" } as const,
      toolCalls: 3,
    };
    const out = nextAfter({ ...p, legs: [leg] }, leg, 10_000, {
      maxLegs: 5,
      maxTimeMs: 5_000,
      maxLimitWaitMs: 0,
      limitMarginMs: 0,
      backoffMs: 0,
    } as never);
    expect(out.next).toEqual({
      type: "brake",
      name: "max_time",
      message: "the wall time ran out during the leg (--max-time)",
    });
  });
});

describe("the progress lines", () => {
  test("the closing line counts the legs as .legs does; a brake leg says brake", () => {
    expect(doneLine([{ n: 1 }], 3)).toBe("ctx run: done after 1 leg in 3 s");
    expect(doneLine([{ n: 1 }, { n: 2 }, { n: 2 }], 9)).toBe(
      "ctx run: done after 3 legs (1 run again after a usage limit) in 9 s",
    );
    expect(endLine(1, { kind: "brake", detail: "the wall time ran out during the leg (--max-time)" }, 40, 90)).toBe(
      "ctx run: leg 1 ended at a brake: the wall time ran out during the leg (--max-time)",
    );
  });
});
