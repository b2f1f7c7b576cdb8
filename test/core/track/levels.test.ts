import { describe, expect, test } from "bun:test";
import { levelFor, levelMessage, newlyCrossed } from "../../../src/core/track/levels.ts";

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
  for (const [pct, level] of cases) test(`${pct}% is ${level}`, () => expect(levelFor(pct, T)).toBe(level as never));
  test("a level switched off is skipped", () => expect(levelFor(91, { ...T, auto_pause: false })).toBe("critical"));
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
  expect(levelMessage("auto_pause", 91, 182000, 200000)).toContain("91% used (182000/200000 tokens), AUTO-PAUSE");
});
