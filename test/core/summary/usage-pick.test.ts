import { expect, test } from "bun:test";
import { pickUsage, type UsageCandidate } from "../../../src/core/summary/usage-pick.ts";

const at = (usedPct: number, atMs: number, source: UsageCandidate["source"]): UsageCandidate => ({
  usedTokens: usedPct * 2000,
  windowSize: 200_000,
  usedPct,
  atMs,
  source,
});

test("the newest reading wins; empty ones never do", () => {
  expect(pickUsage([at(78, 3000, "bridge"), at(40, 2000, "state"), at(0, 9000, "transcript")])?.source).toBe("bridge");
  // After a compaction the newest figure is the lower one.
  expect(pickUsage([at(90, 1000, "bridge"), at(20, 5000, "transcript")])?.usedPct).toBe(20);
  expect(pickUsage([undefined, at(0, 1, "state")])).toBeUndefined();
});

test("never below the reading that triggered the finalize (a transcript that lags the status line)", () => {
  const picked = pickUsage([at(9, 9000, "transcript"), at(0, 8000, "state")], at(78, 1000, "trigger"));
  expect([picked?.usedPct, picked?.source]).toEqual([78, "trigger"]);
  expect(pickUsage([at(80, 9000, "bridge")], at(78, 1000, "trigger"))?.source).toBe("bridge");
  expect(pickUsage([], at(78, 1000, "trigger"))?.usedPct).toBe(78);
});
