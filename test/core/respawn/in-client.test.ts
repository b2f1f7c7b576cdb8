import { describe, expect, test } from "bun:test";
import {
  afterCycle,
  afterLimit,
  holdDetail,
  inClientDecision,
  limitPlan,
  withReading,
} from "../../../src/core/respawn/in-client.ts";
import { initialState } from "../../../src/core/respawn/machine.ts";
import { settingsFromConfig } from "../../../src/core/respawn/settings.ts";
import type { Config } from "../../../src/core/config-schema.ts";
import { defaults } from "../../../src/core/config.ts";
import { QUIET_IDLE } from "../../helpers/idle.ts";

const NOW = 1_800_000_000_000;
/** A session at `pct` under the default thresholds (compact at 85, restart at 90). */
function at(pct: number, cfg: Partial<Config> = {}) {
  return withReading(initialState(settingsFromConfig({ ...defaults(), ...cfg }), NOW - 60_000), pct, NOW);
}

describe("inClientDecision: what the mod does at an idle turn's end", () => {
  test("at respawn.compact_at: compact", () => {
    expect(inClientDecision(at(86), QUIET_IDLE, NOW)).toMatchObject({ kind: "compact", trigger: 85 });
  });
  test("at respawn.restart_at with compaction off: finalize, /clear, the continue prompt", () => {
    const d = inClientDecision(at(91, { "respawn.compact_at": false }), QUIET_IDLE, NOW);
    expect(d).toMatchObject({ kind: "restart", trigger: 90 });
    expect(d.kind === "restart" && d.steps.map((s) => s.kind)).toEqual(["finalize", "clear", "kickstart"]);
  });
  test("below both levels: nothing", () => {
    expect(inClientDecision(at(70), QUIET_IDLE, NOW)).toMatchObject({ kind: "none" });
  });
  test("a half-typed draft is left alone", () => {
    expect(inClientDecision(at(95), { ...QUIET_IDLE, draft: true }, NOW)).toEqual({
      kind: "none",
      reason: "the person is typing a draft",
    });
  });
  test("an open permission or question dialog is left alone", () => {
    expect(inClientDecision(at(95), { ...QUIET_IDLE, dialogOpen: true }, NOW)).toEqual({
      kind: "none",
      reason: "a dialog waits for the person",
    });
  });
  test("a queued prompt is left alone", () => {
    expect(inClientDecision(at(95), { ...QUIET_IDLE, queuedPrompt: true }, NOW)).toEqual({
      kind: "none",
      reason: "a prompt the person queued runs next",
    });
  });
  test("a running subagent is left alone", () => {
    expect(inClientDecision(at(95), { ...QUIET_IDLE, subagentsRunning: 2 }, NOW)).toEqual({
      kind: "none",
      reason: "2 subagent(s) still running",
    });
  });
  test("at the usage limit the client's own auto-continue is not doubled", () => {
    expect(inClientDecision(at(95), { ...QUIET_IDLE, limited: true }, NOW).kind).toBe("none");
    expect(inClientDecision(at(95), { ...QUIET_IDLE, turnReason: "error" }, NOW)).toEqual({
      kind: "none",
      reason: "the turn ended with error, not an answer",
    });
  });
  test("the tmux supervisor's brakes: cooldown, then no progress halts", () => {
    const after = afterCycle(at(91, { "respawn.compact_at": false }), "restart", 90, true, NOW);
    expect(inClientDecision(withReading(after, 95, NOW + 1000), QUIET_IDLE, NOW + 1000)).toMatchObject({
      kind: "brake",
      halt: false,
    });
    // Usage back at the trigger right after two cycles: cycling stops.
    let s = after;
    for (let i = 1; i <= 2; i++) {
      s = withReading(s, 92, NOW + i * 120_000);
      if (i < 2) s = afterCycle(s, "restart", 90, true, NOW + i * 120_000 + 1);
    }
    expect(inClientDecision(s, QUIET_IDLE, NOW + 400_000)).toMatchObject({ kind: "brake", halt: true });
  });
  test("keep-working mode stays with the tmux supervisor", () => {
    expect(inClientDecision(at(95, { "respawn.mode": "keep-working" }), QUIET_IDLE, NOW).kind).toBe("none");
  });
});

describe("holdDetail: the record's hold line, as the tmux supervisor writes one", () => {
  test("a due cycle left alone says why, at which figure, and what waits", () => {
    expect(holdDetail(at(92, { "respawn.compact_at": false }), { ...QUIET_IDLE, subagentsRunning: 1 })).toBe(
      "1 subagent(s) still running at 92%: the restart waits for the next idle turn",
    );
    expect(holdDetail(at(86), { ...QUIET_IDLE, dialogOpen: true })).toBe(
      "a dialog waits for the person at 86%: the compact waits for the next idle turn",
    );
  });
  test("nothing held: idle, below both levels, keep-working, or the usage limit (its own events)", () => {
    expect(holdDetail(at(95), QUIET_IDLE)).toBeUndefined();
    expect(holdDetail(at(70), { ...QUIET_IDLE, draft: true })).toBeUndefined();
    expect(holdDetail(at(95, { "respawn.mode": "keep-working" }), { ...QUIET_IDLE, draft: true })).toBeUndefined();
    expect(holdDetail(at(95), { ...QUIET_IDLE, limited: true })).toBeUndefined();
  });
});

describe("at the usage limit: continued once", () => {
  const NONE = { autoContinued: false, turnStarted: false, draft: false };
  test("the client's own auto-continue came: the mod adds nothing", () => {
    expect(afterLimit({ ...NONE, autoContinued: true })).toBe("the client continued by itself");
  });
  test("the session went on, or a draft is typed: left alone", () => {
    expect(afterLimit({ ...NONE, turnStarted: true })).toBe("the session went on");
    expect(afterLimit({ ...NONE, draft: true })).toBe("the person is typing a draft");
  });
  test("no auto-continue after the reset: the mod continues, at the reset plus the margin", () => {
    expect(afterLimit(NONE)).toBeUndefined();
    const s = at(50);
    expect(limitPlan(s, NOW)).toEqual({
      atMs: NOW + s.settings.limitMarginMs,
      prompt: s.settings.limitContinuePrompt,
    });
    expect(limitPlan(s, null)).toBeUndefined();
    expect(limitPlan(at(50, { "respawn.limit_continue_prompt": "off" }), NOW)).toBeUndefined();
  });
});
