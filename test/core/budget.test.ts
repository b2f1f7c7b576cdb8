import { describe, expect, test } from "bun:test";
import {
  autoCompactAt,
  basisPct,
  levelValueText,
  parseLevel,
  parseTokens,
  scaleOf,
  scaleText,
  thresholdTokens,
} from "../../src/core/budget.ts";
import { resolveConfig } from "../../src/core/config.ts";
import { ladderOf, levelOfReading, textFigures, usageWords } from "../../src/core/levels.ts";

/** The token count at which each level fires for a window under a configuration. */
function firesAt(window: number, layer: Record<string, unknown> = {}) {
  const t = ladderOf(resolveConfig([layer]));
  const scale = scaleOf(window, t.budget ?? false);
  return {
    warning: thresholdTokens(t.warning, scale),
    critical: thresholdTokens(t.critical, scale),
    auto_pause: thresholdTokens(t.auto_pause, scale),
  };
}

describe("the auto-compact point: window − min(max output, 20k) − 13k", () => {
  test("200k → 167k, 258.4k → 225.4k, 1M → 967k", () => {
    expect(autoCompactAt(200_000)).toBe(167_000);
    expect(autoCompactAt(258_400)).toBe(225_400);
    expect(autoCompactAt(1_000_000)).toBe(967_000);
  });
  test("a model with less than 20k of output keeps less free", () => {
    expect(autoCompactAt(200_000, 8_192)).toBe(178_808);
    expect(autoCompactAt(200_000, 64_000)).toBe(167_000);
  });
  test("a window too small for the reserve keeps its size", () => expect(autoCompactAt(40_000)).toBe(40_000));
});

describe("where each level fires, in tokens", () => {
  test("the default budget (200k) on a 1M window: 130k, 150k, 180k", () =>
    expect(firesAt(1_000_000)).toEqual({ warning: 130_000, critical: 150_000, auto_pause: 180_000 }));
  test("a 200k window: the budget changes nothing, auto_pause moves to the auto-compact point", () =>
    expect(firesAt(200_000)).toEqual({ warning: 130_000, critical: 150_000, auto_pause: 167_000 }));
  test("a 258.4k window (Codex CLI's gpt-5.5) under the default budget", () =>
    expect(firesAt(258_400)).toEqual({ warning: 130_000, critical: 150_000, auto_pause: 180_000 }));
  test("without a budget a 1M window warns at 650k, 750k, 900k", () =>
    expect(firesAt(1_000_000, { "context.budget": "off" })).toEqual({
      warning: 650_000,
      critical: 750_000,
      auto_pause: 900_000,
    }));
  test("without a budget a 258.4k window's auto_pause stops at 225.4k", () =>
    expect(firesAt(258_400, { "context.budget": "off" }).auto_pause).toBe(225_400));
  test("levels in tokens ignore the budget; one past the auto-compact point lands on it", () =>
    expect(
      firesAt(1_000_000, { "levels.warning": "300k", "levels.critical": "400k", "levels.auto_pause": "990k" }),
    ).toEqual({ warning: 300_000, critical: 400_000, auto_pause: 967_000 }));
  test("a budget of 500k and percent levels: 325k, 375k, 450k", () =>
    expect(firesAt(1_000_000, { "context.budget": "500k" })).toEqual({
      warning: 325_000,
      critical: 375_000,
      auto_pause: 450_000,
    }));
  test("a budget above the window is the window", () =>
    expect(firesAt(200_000, { "context.budget": "1M" }).warning).toBe(130_000));
});

describe("levels of readings under a budget", () => {
  const t = ladderOf(resolveConfig([{ "context.budget": "200k" }]));
  const at = (tokens: number) => ({ usedTokens: tokens, windowSize: 1_000_000, usedPct: Math.round(tokens / 10_000) });
  test("129,999 is ok, 130,000 warning, 150,000 critical, 180,000 auto_pause", () => {
    expect(levelOfReading(at(129_999), t)).toBe("ok");
    expect(levelOfReading(at(130_000), t)).toBe("warning");
    expect(levelOfReading(at(149_999), t)).toBe("warning");
    expect(levelOfReading(at(150_000), t)).toBe("critical");
    expect(levelOfReading(at(180_000), t)).toBe("auto_pause");
  });
  test("the words say which applies", () => {
    expect(usageWords(at(130_000), t)).toBe("65% of 200k budget · 1M window");
    expect(usageWords({ usedTokens: 130_000, windowSize: 200_000, usedPct: 65 }, t)).toBe("65% of 200k window");
    expect(textFigures(at(150_000), t)).toMatchObject({ usedPct: 75, remainingPct: 25 });
  });
  test("without a budget the reading's own % decides (Codex CLI's UI formula is kept)", () => {
    const scale = scaleOf(258_400, false);
    expect(basisPct(100_000, 30, scale)).toBe(30);
    expect(scaleText(scale)).toBe("258k window");
  });
});

describe("amounts as written", () => {
  test("tokens: 200k, 1.2M, 130000, 200k tokens", () => {
    expect(parseTokens("200k")).toBe(200_000);
    expect(parseTokens("1.2M")).toBe(1_200_000);
    expect(parseTokens("130000")).toBe(130_000);
    expect(parseTokens("200k tokens")).toBe(200_000);
    expect(parseTokens("lots")).toBeUndefined();
  });
  test("levels: 65 and 65% are used %, 130k and 130000 tokens; 200 and 0.05k are neither", () => {
    expect(parseLevel("65")).toBe(65);
    expect(parseLevel("65%")).toBe(65);
    expect(parseLevel("130k")).toBe(130_000);
    expect(parseLevel("130000")).toBe(130_000);
    expect(parseLevel("200")).toBeUndefined();
    expect(parseLevel("0.05k")).toBeUndefined();
    expect(parseLevel("120%")).toBeUndefined();
  });
  test("config and environment take both", () => {
    const cfg = resolveConfig([{ "levels.warning": "130k" }, { "levels.critical": "70%", "context.budget": "300k" }]);
    expect(cfg["levels.warning"]).toBe(130_000);
    expect(cfg["levels.critical"]).toBe(70);
    expect(cfg["context.budget"]).toBe(300_000);
    expect(levelValueText(cfg["levels.warning"])).toBe("130k");
    expect(levelValueText(cfg["levels.critical"])).toBe("70%");
  });
});

test("CTX_LEVELS_WARNING=130k and CTX_CONTEXT_BUDGET=300k from the environment", async () => {
  const { envLayer } = await import("../../src/core/config.ts");
  const cfg = resolveConfig([envLayer({ CTX_LEVELS_WARNING: "130k", CTX_CONTEXT_BUDGET: "300k" })]);
  expect(cfg["levels.warning"]).toBe(130_000);
  expect(cfg["context.budget"]).toBe(300_000);
});
