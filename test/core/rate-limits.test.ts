import { describe, expect, test } from "bun:test";
import { checkpointText, nearReset, parseRateLimits, rateLimitText, waitText } from "../../src/core/rate-limits.ts";

// 2026-12-01 15:00:00 UTC
const RESET_S = 1_796_137_200;
const RESET_MS = RESET_S * 1000;

describe("parseRateLimits()", () => {
  test("the status-line payload's five_hour, seven_day and spend_limit", () => {
    const r = parseRateLimits({
      five_hour: { used_percentage: 82, resets_at: RESET_S },
      seven_day: { used_percentage: 41.5, resets_at: "2026-12-05T09:00:00Z" },
      spend_limit: { used_percentage: 12, resets_at: RESET_MS, used_usd: 12.5, limit_usd: 100, period: "month" },
    });
    expect(r).toEqual({
      fiveHour: { usedPct: 82, resetsMs: RESET_MS },
      sevenDay: { usedPct: 41.5, resetsMs: Date.parse("2026-12-05T09:00:00Z") },
      spend: { usedPct: 12, resetsMs: RESET_MS, usedUsd: 12.5, limitUsd: 100 },
    });
  });
  test("absent, null or garbage windows are left out; nothing usable is undefined", () => {
    expect(parseRateLimits(undefined)).toBeUndefined();
    expect(parseRateLimits({ five_hour: null, seven_day: { used_percentage: "x" } })).toBeUndefined();
    expect(parseRateLimits({ five_hour: { used_percentage: 1e308 } })).toBeUndefined();
    expect(parseRateLimits({ five_hour: { used_percentage: 50, resets_at: -3 } })).toEqual({
      fiveHour: { usedPct: 50, resetsMs: null },
    });
  });
});

describe("what is shown", () => {
  const r = parseRateLimits({ five_hour: { used_percentage: 82, resets_at: RESET_S } })!;
  test("5h 82% · resets 15:00", () => expect(rateLimitText(r, "UTC")).toBe("5h 82% · resets 15:00"));
  test("the 7-day window once it is the nearer wall", () => {
    const both = parseRateLimits({
      five_hour: { used_percentage: 20, resets_at: RESET_S },
      seven_day: { used_percentage: 95, resets_at: RESET_S },
    })!;
    expect(rateLimitText(both, "UTC")).toBe("5h 20% · resets 15:00 · 7d 95% · resets 15:00");
  });
  test("the agent's checkpoint and the wait's words", () => {
    const w = { usedPct: 91, resetsMs: RESET_MS };
    expect(checkpointText(w, "UTC")).toStartWith(
      "USAGE CHECKPOINT: 91% of the 5-hour usage window is used (it resets at 15:00). Checkpoint now:",
    );
    expect(waitText("cycle", w, "UTC")).toBe(
      "waiting for the 5-hour usage window to reset at 15:00 (91% used): a cycle started now could not finish before it",
    );
  });
});

describe("nearReset(): checkpoint due, and no cycle or leg before the reset", () => {
  const at = (pct: number) => parseRateLimits({ five_hour: { used_percentage: pct, resets_at: RESET_S } });
  test("from limits.checkpoint_at (90) on, until the reset", () => {
    expect(nearReset(at(89), 90, RESET_MS - 60_000)).toBeUndefined();
    expect(nearReset(at(91), 90, RESET_MS - 60_000)).toEqual({ usedPct: 91, resetsMs: RESET_MS });
    expect(nearReset(at(91), 90, RESET_MS)).toBeUndefined();
    expect(nearReset(at(99), false, 0)).toBeUndefined();
    expect(nearReset(undefined, 90, 0)).toBeUndefined();
  });
});
