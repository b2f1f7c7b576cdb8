import { describe, expect, test } from "bun:test";
import { modelWindow } from "../../src/core/agents/index.ts";
import {
  contextTokens,
  footerPct,
  formatTokens,
  percentOf,
  reading,
  usablePct,
  windowFor,
} from "../../src/core/usage.ts";

describe("contextTokens()", () => {
  test.each([
    [
      { input_tokens: 50, cache_creation_input_tokens: 1000, cache_read_input_tokens: 170000, output_tokens: 20 },
      171050,
    ],
    [{ input_tokens: 10 }, 10],
    [{ input_tokens: -5, cache_read_input_tokens: "9" }, 0],
    [{ input_tokens: Number.NaN, cache_creation_input_tokens: 7 }, 7],
    [null, 0],
    [undefined, 0],
  ])("%j counts %d tokens (output excluded)", (usage, want) => {
    expect(contextTokens(usage as never)).toBe(want);
  });
});

describe("percentOf()", () => {
  test.each([
    [171050, 1_000_000, 17], // PROTOCOL.md's recorded payload
    [151050, 200_000, 76],
    [180000, 200_000, 90],
    [130050, 200_000, 65],
    [0, 200_000, 0],
    [5, 0, 0],
  ])("%d of %d is %d%% like Claude Code", (used, size, want) => {
    expect(percentOf(used, size)).toBe(want);
  });
});

describe("windowFor()", () => {
  test.each([
    ["claude-sonnet-4-5", 150_000, false, 200_000],
    ["claude-opus-4-8[1m]", 10, false, 1_000_000],
    ["claude-sonnet-4-5", 250_000, false, 1_000_000],
    [undefined, 0, false, 200_000],
    ["claude-sonnet-4-5", 10, 500_000, 500_000],
    ["gemini-2.5-pro", 10, false, 1_048_576],
  ] as const)("%s with %d used (configured %s) is %d", (model, used, configured, want) => {
    expect(windowFor(model, used, configured, modelWindow(model))).toBe(want);
  });
});

test("reading() gives remaining as 100 - used, never negative", () => {
  expect(reading(130050, 200_000)).toEqual({ usedTokens: 130050, windowSize: 200_000, usedPct: 65, remainingPct: 35 });
  expect(reading(300_000, 200_000).remainingPct).toBe(0);
});

test("usablePct() measures against the window minus the auto-compact buffer", () => {
  expect(usablePct(167_000, 200_000, 16.5)).toBe(100);
  expect(usablePct(83_500, 200_000, 16.5)).toBe(50);
  expect(usablePct(190_000, 200_000, 16.5)).toBe(100);
});

describe("formatTokens()", () => {
  test.each([
    [950, "950"],
    [130_050, "130k"],
    [200_000, "200k"],
    [1_000_000, "1M"],
    [1_250_000, "1.3M"],
  ])("%d → %s", (n, want) => expect(formatTokens(n)).toBe(want));
});

test.each([
  [151_050, 200_000, 83], // PROTOCOL.md: the client's footer shows 83 % where used_percentage is 76
  [180_000, 200_000, 100],
  [190_000, 200_000, 100],
  [0, 200_000, 0],
])("footerPct(%d, %d) is %d like the client's footer", (used, size, want) => expect(footerPct(used, size)).toBe(want));
