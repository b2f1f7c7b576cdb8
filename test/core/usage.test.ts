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
  // Claude Code 2.1.231, claude-opus-5 consulting claude-fable-5 as its advisor (teslamint/entirecontext, MIT:
  // bench/corpus/entirecontext/219b8d58-….jsonl, line 49): the top-level counts are the three calls' sum.
  test("a request with an advisor's call: the session's model's last call, not the sum of all three", () => {
    const usage = {
      input_tokens: 4,
      cache_creation_input_tokens: 1494,
      cache_read_input_tokens: 131273,
      output_tokens: 971,
      iterations: [
        {
          input_tokens: 2,
          output_tokens: 301,
          cache_read_input_tokens: 65402,
          cache_creation_input_tokens: 469,
          type: "message",
        },
        {
          input_tokens: 67421,
          output_tokens: 2546,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          type: "advisor_message",
          model: "claude-fable-5",
        },
        {
          input_tokens: 2,
          output_tokens: 670,
          cache_read_input_tokens: 65871,
          cache_creation_input_tokens: 1025,
          type: "message",
        },
      ],
    };
    expect(contextTokens(usage)).toBe(66_898);
    // one call, as every ordinary request lists it: the same as the top-level counts
    const one = {
      input_tokens: 2,
      cache_creation_input_tokens: 39050,
      cache_read_input_tokens: 20712,
      iterations: [
        { input_tokens: 2, cache_creation_input_tokens: 39050, cache_read_input_tokens: 20712, type: "message" },
      ],
    };
    expect(contextTokens(one)).toBe(59_764);
    // a list without a call of the session's model, or not a list: the top-level counts
    expect(contextTokens({ input_tokens: 5, iterations: [{ type: "advisor_message", input_tokens: 9 }, {}] })).toBe(5);
    expect(contextTokens({ input_tokens: 5, iterations: "x" } as never)).toBe(5);
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
