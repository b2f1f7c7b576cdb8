/** ctx run's command line. */
import { expect, test } from "bun:test";
import { parseDuration, parseRunArgs } from "../../../src/core/run/options.ts";

test("defaults, and everything after -- passes through unchanged", () => {
  const o = parseRunArgs(["-p", "do it", "--", "--model", "m", "--allowedTools", "Bash", "Write"]);
  expect(o).toEqual({
    prompt: "do it",
    json: false,
    maxLegs: 10,
    maxTimeMs: 6 * 3_600_000,
    maxLimitWaitMs: 6 * 3_600_000,
    limitMarginMs: 60_000,
    restartAt: undefined,
    passthrough: ["--model", "m", "--allowedTools", "Bash", "Write"],
  });
});

test("options", () => {
  const o = parseRunArgs([
    "-p",
    "x",
    "--json",
    "--max-legs",
    "3",
    "--max-time",
    "30m",
    "--limit-margin",
    "5",
    "--restart-at",
    "70",
  ]);
  expect([o.json, o.maxLegs, o.maxTimeMs, o.limitMarginMs, o.restartAt]).toEqual([true, 3, 1_800_000, 5000, 70]);
});

test("usage errors exit 2", () => {
  const bad = [
    [],
    ["-p", " "],
    ["-p", "x", "--max-legs", "0"],
    ["-p", "x", "--max-time", "soon"],
    ["-p", "x", "--restart-at", "101"],
    ["-p", "x", "--", "--output-format=stream-json"],
    ["-p", "x", "--", "--resume", "abc"],
    ["-p", "x", "--", "-p"],
  ];
  for (const argv of bad) expect(() => parseRunArgs(argv)).toThrow(expect.objectContaining({ code: 2 }));
});

test("durations", () => {
  expect([parseDuration("90"), parseDuration("90s"), parseDuration("2m"), parseDuration("1h")]).toEqual([
    90_000, 90_000, 120_000, 3_600_000,
  ]);
  expect(parseDuration("1.5h")).toBeUndefined();
});
