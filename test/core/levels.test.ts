import { describe, expect, test } from "bun:test";
import { defaults } from "../../src/core/config.ts";
import {
  isWarnLevel,
  ladderOf,
  LEVEL_TABLE,
  levelAt,
  levelColour,
  levelRank,
  levelWord,
  LEVELS,
  WARN_LEVELS,
} from "../../src/core/levels.ts";
import { levelMessage } from "../../src/core/track/levels.ts";
import { warningText } from "../../src/core/debounce.ts";

const LADDER = ladderOf(defaults());

describe("the one ladder", () => {
  test("defaults: warning 65, critical 75, auto_pause 90 (used %)", () => {
    expect(LADDER).toEqual({ warning: 65, critical: 75, auto_pause: 90, budget: 200_000 });
    expect(LEVELS).toEqual(["ok", "warning", "critical", "auto_pause"]);
  });
  test.each([
    [0, "ok"],
    [64, "ok"],
    [65, "warning"],
    [74, "warning"],
    [75, "critical"],
    [89, "critical"],
    [90, "auto_pause"],
    [120, "auto_pause"],
  ] as const)("%d%% used is %s", (pct, want) => expect(levelAt(pct, LADDER)).toBe(want));
  test("a rung switched off is skipped", () => {
    expect(levelAt(80, { ...LADDER, critical: false })).toBe("warning");
    expect(levelAt(99, { warning: false, critical: false, auto_pause: false })).toBe("ok");
  });
  test("colours: green, yellow, red, red", () => {
    expect(LEVELS.map(levelColour)).toEqual(["32", "33", "31", "31"]);
  });
  test("ranks rise; words that are no level rank -1", () => {
    expect(LEVELS.map(levelRank)).toEqual([0, 1, 2, 3]);
    expect(levelRank("caution")).toBe(-1);
  });
  test("the agent and the user read the same word for the same figure", () => {
    for (const [pct, level] of [
      [70, "warning"],
      [80, "critical"],
    ] as const) {
      expect(warningText(level, pct, 100 - pct)).toStartWith(`CONTEXT ${levelWord(level)}: ${pct}%`);
      expect(levelMessage(level, pct, pct * 2000, 200_000)).toContain(`${pct}% used`);
      expect(levelMessage(level, pct, pct * 2000, 200_000)).toContain(levelWord(level));
    }
    expect(warningText("auto_pause", 92, 8)).toContain("auto_pause");
    expect(levelMessage("auto_pause", 92, 184000, 200_000)).toContain("AUTO-PAUSE");
  });
});

describe("the one table", () => {
  test("every level above ok has its own default, colour and texts, and a config key", () => {
    const cfg = defaults() as Record<string, unknown>;
    const agent = new Set<string>();
    for (const level of WARN_LEVELS) {
      const row = LEVEL_TABLE[level];
      expect(cfg[`levels.${level}`]).toBe(row.default);
      expect(row.agent.length).toBeGreaterThan(20);
      expect(row.user.length).toBeGreaterThan(20);
      agent.add(row.agent);
    }
    expect(agent.size).toBe(WARN_LEVELS.length);
    expect(LEVELS).toEqual(["ok", ...WARN_LEVELS]);
  });
  test("state words are checked against the table", () => {
    expect(WARN_LEVELS.every(isWarnLevel)).toBe(true);
    expect(isWarnLevel("ok")).toBe(false);
    expect(isWarnLevel(null)).toBe(false);
  });
});
