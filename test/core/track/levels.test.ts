import { describe, expect, test } from "bun:test";
import { levelFor, levelMessage, newlyCrossed } from "../../../src/core/track/levels.ts";

const T = { caution: 70, warning: 85, auto_pause: 90, critical: 95 } as const;

describe("levelFor()", () => {
  const cases: Array<[number, string | null]> = [
    [0, null],
    [69, null],
    [70, "caution"],
    [84, "caution"],
    [85, "warning"],
    [90, "auto_pause"],
    [94, "auto_pause"],
    [95, "critical"],
    [130, "critical"],
  ];
  for (const [pct, level] of cases) test(`${pct}% is ${level}`, () => expect(levelFor(pct, T)).toBe(level as never));
  test("a level switched off is skipped", () => expect(levelFor(91, { ...T, auto_pause: false })).toBe("warning"));
});

describe("newlyCrossed()", () => {
  test("reports a higher level once", () => {
    expect(newlyCrossed(null, "caution")).toBe("caution");
    expect(newlyCrossed("caution", "caution")).toBeNull();
  });
  test("a jump reports only the highest level", () => expect(newlyCrossed(null, "critical")).toBe("critical"));
  test("a drop reports nothing", () => expect(newlyCrossed("critical", "caution")).toBeNull());
});

test("levelMessage() names the level and the figures", () => {
  expect(levelMessage("auto_pause", 91, 182000, 200000)).toContain("91% used (182000/200000 tokens), AUTO-PAUSE");
});
