import { describe, expect, test } from "bun:test";
import { levelFor, levelMessage, newlyCrossed, userNextStep } from "../../../src/core/track/levels.ts";

const T = { warning: 65, critical: 75, auto_pause: 90 } as const;

describe("levelFor()", () => {
  const cases: Array<[number, string | null]> = [
    [0, null],
    [64, null],
    [65, "warning"],
    [74, "warning"],
    [75, "critical"],
    [89, "critical"],
    [90, "auto_pause"],
    [130, "auto_pause"],
  ];
  // a 1M window without a budget: its auto-compact point (967k) is above every level
  const at = (pct: number) => ({ usedTokens: pct * 10_000, windowSize: 1_000_000, usedPct: pct });
  for (const [pct, level] of cases)
    test(`${pct}% is ${level}`, () => expect(levelFor(at(pct), T)).toBe(level as never));
  test("a level switched off is skipped", () => expect(levelFor(at(91), { ...T, auto_pause: false })).toBe("critical"));
  test("a 200k window's auto_pause comes at its auto-compact point, 167k", () => {
    expect(levelFor({ usedTokens: 166_999, windowSize: 200_000, usedPct: 83 }, T)).toBe("critical");
    expect(levelFor({ usedTokens: 167_000, windowSize: 200_000, usedPct: 84 }, T)).toBe("auto_pause");
  });
});

describe("newlyCrossed()", () => {
  test("reports a higher level once", () => {
    expect(newlyCrossed(null, "warning")).toBe("warning");
    expect(newlyCrossed("warning", "warning")).toBeNull();
  });
  test("a jump reports only the highest level", () => expect(newlyCrossed(null, "auto_pause")).toBe("auto_pause"));
  test("a drop reports nothing", () => expect(newlyCrossed("critical", "warning")).toBeNull());
});

test("levelMessage() names the level and the figures", () => {
  expect(levelMessage("auto_pause", 91, 182000, 200000)).toContain("91% used (182k/200k tokens), AUTO-PAUSE");
});

describe("the user's CRITICAL message says what to do", () => {
  const writing = { state: "writing" } as const;
  test("without a supervisor: /clear once the step is done, or ctx resume", () => {
    const m = levelMessage("critical", 76, 152000, 200000, writing);
    expect(m).toStartWith("ctx: context 76% used (152k/200k tokens), CRITICAL.");
    expect(m).toContain("Handoff: ctx finalize is writing the handoff summary now.");
    expect(m).toEndWith(
      "You: when the agent has finished its step, type /clear; the fresh session starts from the summary (or quit and run 'ctx resume --latest' in this terminal).",
    );
    expect(levelMessage("auto_pause", 91, 182000, 200000, { state: "written", path: "/p/s.md" })).toContain(
      "type /clear; the fresh session starts from the summary (or quit and run 'ctx resume /p/s.md').",
    );
  });
  test("under ctx respawn: nothing to do", () => {
    const m = levelMessage("critical", 76, 152000, 200000, writing, true);
    expect(m).toEndWith(
      "You: nothing to do, ctx respawn supervises this session and continues it in a fresh context when it is idle.",
    );
    expect(m).not.toContain("/clear");
  });
  test("when the summary could not be written, the work is saved before /clear; WARNING has no instruction", () => {
    expect(userNextStep({ state: "failed", reason: "disk full" }, false)).toBe(
      "You: have the agent note what remains and commit, then type /clear to continue in a fresh context.",
    );
    expect(levelMessage("warning", 66, 132000, 200000, writing)).not.toContain("You:");
  });
});
