import { describe, expect, test } from "bun:test";
import {
  debounceStep,
  initialMonitorState,
  parseMonitorState,
  warningText,
  type MonitorState,
} from "../../src/core/debounce.ts";
import type { Level } from "../../src/core/levels.ts";

/** Runs a sequence of levels through the debounce and returns which calls fired (1-based). */
function fired(levels: Level[], debounce = 5): number[] {
  let state: MonitorState = initialMonitorState(0);
  const out: number[] = [];
  levels.forEach((level, i) => {
    const r = debounceStep(state, level, debounce, i);
    state = r.state;
    if (r.fire) out.push(i + 1);
  });
  return out;
}

const W = "warning" as const;
const C = "critical" as const;
const OK = "ok" as const;

describe("debounceStep()", () => {
  test("the first warning fires at once", () => expect(fired([OK, OK, W])).toEqual([3]));
  test("repeats fire on the 5th tool use after the last warning", () => {
    expect(fired(Array(12).fill(W))).toEqual([1, 6, 11]);
  });
  test("an escalation to critical fires at once", () => expect(fired([W, W, C, C])).toEqual([1, 3]));
  test("an escalation from critical to auto_pause fires at once", () =>
    expect(fired([W, C, "auto_pause", "auto_pause"])).toEqual([1, 2, 3]));
  test("critical repeats are debounced like warnings", () => expect(fired([C, C, C, C, C, C])).toEqual([1, 6]));
  test("falling back below the warning level resets the debounce", () => {
    expect(fired([W, W, OK, W, W])).toEqual([1, 4]);
  });
  test("a drop from critical to warning does not fire by itself", () => expect(fired([C, W, W])).toEqual([1]));
  test("debounce of 1 fires on every call", () => expect(fired([W, W, W], 1)).toEqual([1, 2, 3]));
  test("counts fired warnings", () => {
    let s = initialMonitorState(0);
    for (let i = 0; i < 6; i++) s = debounceStep(s, W, 5, i).state;
    expect(s.fired).toBe(2);
  });
});

describe("parseMonitorState()", () => {
  test("accepts a written state", () => {
    const s = { version: 1, last_level: "warning", calls_since: 3, fired: 1, updated_ms: 5, sent_total: 4 };
    expect(parseMonitorState(s)).toEqual(s as MonitorState);
    // an older file without the total: its `fired` counts
    expect(parseMonitorState({ ...s, sent_total: undefined })?.sent_total).toBe(1);
  });
  test("sent_total counts every warning sent and survives usage falling back to ok", () => {
    let s = initialMonitorState(0);
    s = debounceStep(s, "warning", 5, 1).state;
    s = debounceStep(s, "critical", 5, 2).state;
    s = debounceStep(s, "ok", 5, 3).state;
    expect({ fired: s.fired, sent_total: s.sent_total }).toEqual({ fired: 0, sent_total: 2 });
    s = debounceStep(s, "warning", 5, 4).state;
    expect(s.sent_total).toBe(3);
  });
  test.each([[null], ["x"], [{}], [{ calls_since: "3" }], [{ calls_since: Number.NaN }]])("rejects %j", (v) => {
    expect(parseMonitorState(v)).toBeUndefined();
  });
  test("an unknown level means none pending", () => {
    expect(parseMonitorState({ calls_since: 1, last_level: "boom" })?.last_level).toBeNull();
  });
});

describe("warningText()", () => {
  test("warning says used and remaining and to wrap up", () => {
    const t = warningText("warning", 68, 32);
    expect(t.startsWith("CONTEXT WARNING")).toBe(true);
    expect(t).toContain("68%");
    expect(t).toContain("32%");
    expect(t).toMatch(/wrap up/i);
    expect(t).toMatch(/avoid new exploration/i);
  });
  test("critical says to finish the step and leave the work resumable", () => {
    const t = warningText("critical", 80, 20);
    expect(t.startsWith("CONTEXT CRITICAL")).toBe(true);
    expect(t).toContain("80%");
    expect(t).toContain("20%");
    expect(t).toMatch(/finish the current step/i);
    expect(t).toMatch(/resumable/i);
  });
});
