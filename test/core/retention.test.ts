import { expect, test } from "bun:test";
import { expired, planRetention, recordNamesOf, type RetainedSession } from "../../src/core/retention.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);
const s = (id: string, task: string, days: number, ended: boolean, alive = false): RetainedSession => ({
  id,
  task,
  updatedMs: NOW - days * DAY,
  ended,
  alive,
});
const summary = (task: string, day: number) => ({
  name: `summary-${task}-202605${String(day).padStart(2, "0")}-120000.md`,
  mtimeMs: Date.UTC(2026, 4, day, 12),
});

test("by age: old ended sessions go, a live one stays whatever its age", () => {
  const plan = planRetention(
    [
      s("young", "a", 1, true),
      s("old", "a", 40, true),
      s("old-live", "b", 400, false, true),
      s("old-dead", "c", 40, false),
    ],
    [],
    NOW,
    { maxAgeMs: 30 * DAY, keepPerChain: false },
  );
  expect(plan.sessions).toEqual(["old", "old-dead"]);
  expect([...plan.openChains]).toEqual(["b"]);
});

test("the newest summary of an open chain stays past the age limit; a closed chain's goes", () => {
  const plan = planRetention(
    [s("live", "open", 0, false, true), s("done", "closed", 0, true)],
    [summary("open", 1), summary("open", 2), summary("closed", 3)],
    NOW,
    { maxAgeMs: 10 * DAY, keepPerChain: false },
  );
  expect(plan.summaries.sort()).toEqual([summary("closed", 3).name, summary("open", 1).name].sort());
});

test("by count: the newest per chain stay; 0 keeps one; names ctx does not write are left alone", () => {
  const files = [summary("t", 1), summary("t", 3), summary("t", 2), { name: "summary-.md", mtimeMs: 0 }];
  expect(planRetention([], files, NOW, { maxAgeMs: false, keepPerChain: 2 }).summaries).toEqual([summary("t", 1).name]);
  expect(planRetention([], files, NOW, { maxAgeMs: false, keepPerChain: 0 }).summaries.sort()).toEqual(
    [summary("t", 1).name, summary("t", 2).name].sort(),
  );
});

test("a time in the future never ages out; records share the summary's stamp", () => {
  expect(expired(NOW + 50 * DAY, NOW, DAY)).toBe(false);
  expect(expired(NOW - 2 * DAY, NOW, false)).toBe(false);
  expect(recordNamesOf("summary-chain-1-20260501-120000.md")).toEqual([
    "session-20260501-120000.json",
    "session-20260501-120000.yaml",
    "session-20260501-120000.md",
    "session-20260501-120000-incremental.jsonl",
  ]);
});
