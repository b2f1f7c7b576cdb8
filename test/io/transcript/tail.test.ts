import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { latestUsage, usageOfLine } from "../../../src/io/transcript/tail.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { assistantLine } from "../../helpers/transcript.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

const userLine = JSON.stringify({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x" }] },
});

describe("usageOfLine()", () => {
  test("an assistant line gives input + cache creation + cache read", () => {
    expect(usageOfLine(assistantLine(120_000))).toEqual({
      usedTokens: 120_000,
      model: "claude-sonnet-4-5-20250929",
      agent: "claude",
    });
  });
  test("sidechain, synthetic and user lines give nothing", () => {
    expect(usageOfLine(assistantLine(5000, { isSidechain: true }))).toBeUndefined();
    expect(usageOfLine(assistantLine(5000, {}, "<synthetic>"))).toBeUndefined();
    expect(usageOfLine(userLine)).toBeUndefined();
    expect(usageOfLine("{not json")).toBeUndefined();
  });
  test("a compact boundary gives the post-compaction size", () => {
    const line = JSON.stringify({
      type: "system",
      subtype: "compact_boundary",
      compactMetadata: { trigger: "manual", preTokens: 150_000, postTokens: 12_000 },
    });
    expect(usageOfLine(line)).toEqual({ usedTokens: 12_000, compacted: true, agent: "claude" });
  });
  test("a Gemini CLI chat line gives tokens.input", () => {
    expect(
      usageOfLine(
        JSON.stringify({
          type: "gemini",
          model: "gemini-2.5-pro",
          tokens: { input: 5000, output: 10, cached: 4000, tool: 0, total: 5010 },
        }),
      ),
    ).toEqual({ usedTokens: 5000, model: "gemini-2.5-pro", agent: "gemini" });
  });
});

describe("latestUsage()", () => {
  test("finds the newest main-chain usage, skipping later sidechain lines", () => {
    const p = join(t.dir, "t.jsonl");
    writeFileSync(
      p,
      [
        assistantLine(50_000),
        userLine,
        assistantLine(90_000),
        assistantLine(7_000, { isSidechain: true }),
        userLine,
        "",
      ].join("\n"),
    );
    expect(latestUsage(p, 1 << 20)?.usedTokens).toBe(90_000);
  });
  test("handles a last line without a newline and a line longer than a read chunk", () => {
    const p = join(t.dir, "t.jsonl");
    const huge = JSON.stringify({ type: "user", message: { content: "y".repeat(700_000) } });
    writeFileSync(p, [assistantLine(60_000), huge, assistantLine(61_000)].join("\n"));
    expect(latestUsage(p, 1 << 22)?.usedTokens).toBe(61_000);
    appendFileSync(p, `\n${huge}\n`);
    expect(latestUsage(p, 1 << 22)?.usedTokens).toBe(61_000);
  });
  test("stops after maxBytes from the end", () => {
    const p = join(t.dir, "t.jsonl");
    writeFileSync(p, `${assistantLine(60_000)}\n${userLine.repeat(1).padEnd(10, " ")}\n${"x".repeat(4096)}\n`);
    expect(latestUsage(p, 1000)).toBeUndefined();
  });
  test("a compaction after the last request means the small post-compaction context", () => {
    const p = join(t.dir, "t.jsonl");
    const boundary = JSON.stringify({
      type: "system",
      subtype: "compact_boundary",
      compactMetadata: { preTokens: 150_000, postTokens: 9_000 },
    });
    writeFileSync(p, [assistantLine(150_000), boundary, ""].join("\n"));
    expect(latestUsage(p, 1 << 20)).toEqual({ usedTokens: 9_000, compacted: true, agent: "claude" });
  });
  test("missing files, symlinks, FIFOs and empty files give nothing", () => {
    expect(latestUsage(join(t.dir, "none"), 1000)).toBeUndefined();
    writeFileSync(join(t.dir, "real"), assistantLine(1000));
    symlinkSync(join(t.dir, "real"), join(t.dir, "link"));
    expect(latestUsage(join(t.dir, "link"), 1000)).toBeUndefined();
    Bun.spawnSync(["mkfifo", join(t.dir, "fifo")]);
    expect(latestUsage(join(t.dir, "fifo"), 1000)).toBeUndefined();
    writeFileSync(join(t.dir, "empty"), "");
    expect(latestUsage(join(t.dir, "empty"), 1000)).toBeUndefined();
  });
});
