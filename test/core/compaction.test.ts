import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  addCompactionLine,
  compactionKinds,
  compactionTrigger,
  type TranscriptCompaction,
} from "../../src/core/compaction.ts";
import { addEntry } from "../../src/core/summary/collect.ts";
import { emptyFacts } from "../../src/core/summary/facts.ts";
import { summaryIntent } from "../../src/core/summary/mid-story.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "transcripts");
const lines = (name: string) =>
  readFileSync(join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);

describe("the trigger of a compaction", () => {
  test("manual stays manual; automatic inside a turn is auto; between turns idle", () => {
    expect(compactionTrigger("manual", "Stop")).toBe("manual");
    expect(compactionTrigger("auto", "PostToolUse")).toBe("auto");
    expect(compactionTrigger("auto", "UserPromptSubmit")).toBe("auto");
    expect(compactionTrigger("auto", "Stop")).toBe("idle");
    expect(compactionTrigger(undefined, "Stop")).toBe("idle");
    expect(compactionTrigger(undefined, "PostToolUse")).toBe("auto");
  });
});

describe("compactions in transcript lines", () => {
  test("the idle compaction's lines: a boundary (trigger auto), the client's summary, then the idle notice", () => {
    const list: TranscriptCompaction[] = [];
    for (const e of lines("idle-compaction.jsonl")) addCompactionLine(list, e);
    expect(list).toEqual([{ trigger: "idle", preTokens: 212100, at: "2026-12-01T11:00:30.000Z" }]);
    expect(compactionKinds(list)).toBe("1 idle");
  });
  test("the recorded /compact (2.1.197) is manual; the real 2.1.39 auto-compaction is auto", () => {
    const manual: TranscriptCompaction[] = [];
    for (const e of lines("interactive-compact-session.jsonl")) addCompactionLine(manual, e);
    expect(manual.map((c) => c.trigger)).toEqual(["manual"]);
    const auto: TranscriptCompaction[] = [];
    for (const e of lines(join("spotter-window", "auto-compact-200k.jsonl"))) addCompactionLine(auto, e);
    expect(auto.map((c) => c.trigger)).toEqual(["auto"]);
  });
  test("an idle notice without a boundary before it counts nothing", () => {
    const list: TranscriptCompaction[] = [];
    addCompactionLine(list, { type: "system", content: "Compacted while idle, before the prompt cache expired" });
    expect(list).toEqual([]);
  });
});

describe("the client's own compaction summary", () => {
  test("its Primary Request and Intent is what was asked for", () => {
    const text =
      "<summary>\n1. Primary Request and Intent:\n   Port the billing report\n   to the new API.\n\n2. Key Technical Concepts:\n   - x\n</summary>";
    expect(summaryIntent(text)).toBe("Port the billing report to the new API.");
  });
  test("a summary of the transcript keeps the goal from before the idle compaction and counts it as idle", () => {
    const f = emptyFacts([]);
    for (const e of lines("idle-compaction.jsonl")) addEntry(f, e);
    expect(f.goal).toBe("Port the billing report to the new API");
    expect(f.compactionList.map((c) => c.trigger)).toEqual(["idle"]);
  });
  test("a transcript that starts at the compaction takes its goal from the client's summary", () => {
    const f = emptyFacts([]);
    for (const e of lines("idle-compaction.jsonl").slice(3)) addEntry(f, e);
    // the mid-story goal (summary/mid-story.ts) says it continues earlier work
    expect(f.goal).toBe("(continued) Port the billing report to the new API.");
  });
});
