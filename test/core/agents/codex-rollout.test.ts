/**
 * The Codex CLI rollout decoder on a real rollout (test/fixtures/codex/rollout-compact.jsonl, recorded
 * from @openai/codex 0.169.0 against test/e2e/fake-codex.ts): `echo hi` (100,000 tokens), an apply_patch
 * adding notes.txt (120,000), `ls /nonexist` (exit 2, 250,000), an automatic compaction (the fake's
 * compaction request reports 5,000), then "after compaction" (30,000). Window 258,400.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execExitCode, patchFiles, rolloutUsage } from "../../../src/core/agents/codex-rollout.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts } from "../../../src/core/summary/facts.ts";
import type { ModelTotals } from "../../../src/core/track/state.ts";
import { readNewUsage } from "../../../src/io/transcript/stream-usage.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { latestUsage } from "../../../src/io/transcript/tail.ts";
import { clientReading } from "../../../src/io/session/usage-source.ts";
import { renderSession } from "../../helpers/summary.ts";

const ROLLOUT = join(import.meta.dir, "..", "..", "fixtures", "codex", "rollout-compact.jsonl");
/** The sections every summary has, whichever client wrote the transcript. */
const SECTIONS = [
  "## Goal",
  "## Remaining work (open tasks)",
  "## Decisions and reasons (the agent's last messages)",
  "## Last meaningful step\n- apply_patch notes.txt",
  "## Files modified (newest first)\n- `notes.txt` (apply_patch; this session)",
  "## Unresolved errors",
  "## This session",
  "## How to continue",
  "- FAIL `ls /nonexist`",
];
const LINES = readFileSync(ROLLOUT, "utf8").trim().split("\n");

/** The rollout cut right after its `n`-th line holding `needle` (a hook reading the file mid-session). */
function cutAfter(needle: string, n = 1): string {
  let seen = 0;
  const i = LINES.findIndex((l) => l.includes(needle) && ++seen === n);
  const dir = mkdtempSync(join(tmpdir(), "ctx-rollout-"));
  const path = join(dir, "rollout-x.jsonl");
  writeFileSync(path, `${LINES.slice(0, i + 1).join("\n")}\n`);
  return path;
}

describe("the context figure", () => {
  test("right after a request's usage record (the PostToolUse moment): its total, the window and model from older lines", () => {
    expect(latestUsage(cutAfter('"token_usage_record"', 1), 1 << 20)).toMatchObject({
      usedTokens: 100_010,
      windowSize: 258_400,
      model: "gpt-5.5",
      agent: "codex",
    });
  });
  test("the compaction request's token_count is never the context size", () => {
    // Cut right after the `compacted` line: the token_count before it (5,010) belongs to the compaction.
    const u = latestUsage(cutAfter('"type":"compacted"'), 1 << 20)!;
    expect(u).toMatchObject({ usedTokens: 0, compacted: true, windowSize: 258_400 });
    const whole = join(mkdtempSync(join(tmpdir(), "ctx-rollout-")), "rollout-y.jsonl");
    copyFileSync(ROLLOUT, whole);
    expect(latestUsage(whole, 1 << 20)).toMatchObject({ usedTokens: 30_010, windowSize: 258_400 });
  });
  test("the used % is Codex's own figure", () => {
    const u = latestUsage(cutAfter('"token_usage_record"', 3), 1 << 20)!;
    expect(u.usedTokens).toBe(250_010);
    const r = clientReading({ ...u, windowSize: u.windowSize!, agent: "codex" });
    expect(r).toMatchObject({ usedPct: 97, remainingPct: 3, windowSource: "transcript", windowSize: 258_400 });
  });
  test("line by line", () => {
    expect(rolloutUsage({ type: "compacted", payload: { message: "x" } })).toMatchObject({ compacted: true });
    expect(rolloutUsage({ type: "event_msg", payload: { type: "task_started", model_context_window: 9 } })).toEqual({
      windowSize: 9,
    });
    expect(rolloutUsage({ type: "response_item", payload: { type: "message" } })).toBeUndefined();
  });
});

describe("the ledger", () => {
  test("one request per usage record, under the turn's model; the compaction request counts as a request", () => {
    const models: Record<string, ModelTotals> = {};
    readNewUsage(ROLLOUT, null, models, 1 << 24);
    expect(Object.keys(models)).toEqual(["gpt-5.5"]);
    expect(models["gpt-5.5"]).toMatchObject({ requests: 5, input_tokens: 505_000, output_tokens: 50 });
  });
});

describe("the summary facts", () => {
  const f = emptyFacts();
  streamEntries(ROLLOUT, (e) => addEntry(f, e));
  test("the request, both commands (one failed, by its exit code), the patched file and the compaction", () => {
    expect(f.firstRequest).toBe("say hi");
    expect(f.userRequests).toBe(1);
    expect(f.commands.items).toEqual([
      { command: "echo hi", ok: true },
      { command: "ls /nonexist", ok: false },
    ]);
    expect(f.errors.items).toHaveLength(1);
    expect(f.errors.items[0]).toMatchObject({ tool: "Bash", target: "ls /nonexist" });
    expect(f.errors.items[0]!.message).toContain("No such file or directory");
    expect([...f.files.values()].map((x) => x.path)).toEqual(["notes.txt"]);
    expect(f.compactions).toBe(1);
    expect(f.toolResults).toBe(3);
    expect(f.model).toBe("gpt-5.5");
  });
  test("the peak is the context's, not the compaction request's, and the compaction's reply is not the agent's text", () => {
    expect(f.peakTokens).toBe(250_010);
    expect(f.latestTokens).toBe(30_010);
    expect(f.lastAgentText).toBe("after compaction");
    expect(f.agentTexts.items).toEqual(["after compaction"]);
  });
  test("the rendered summary has the sections of a Claude Code one", () => {
    const md = renderSession(f, {
      team: null,
      usage: {
        usedPct: 12,
        usedTokens: 30_010,
        windowSize: 258_400,
        peakPct: 97,
        compactions: 1,
        model: f.model,
        toolCalls: 3,
      },
      generatedAt: "2026-01-01T00:00:00.000Z",
      transcriptPath: ROLLOUT,
      gitStatus: null,
    });
    for (const heading of SECTIONS) expect(md).toContain(heading);
    for (const fact of ["ls /nonexist", "notes.txt", "say hi"]) expect(md).toContain(fact);
  });
  test("Codex's own user messages (environment, AGENTS.md) are no requests", () => {
    const g = emptyFacts();
    const user = (text: string) => ({
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
    addEntry(g, user("<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"));
    addEntry(g, user("# AGENTS.md instructions for /p\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>"));
    addEntry(g, user("Fix the build."));
    expect(g.userRequests).toBe(1);
    expect(g.firstRequest).toBe("Fix the build.");
  });
  // Codex 0.147.0 (teslamint/entirecontext, MIT: bench/corpus/entirecontext/01a00ba5-….jsonl, lines 10 and 11):
  // a prompt another agent sent through `codex exec`, framed in its own tags, with its `user_message` event.
  test("a prompt that begins with a tag is the user's when its user_message event follows", () => {
    const g = emptyFacts();
    const user = (text: string) => ({
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
    const event = (message: string) => ({ type: "event_msg", payload: { type: "user_message", message } });
    const prompt = "<task>Review only the current uncommitted decision-file rename lineage feature.</task>";
    addEntry(g, user("<recommended_plugins>\nHere is a list of plugins\n</recommended_plugins>"));
    addEntry(g, user("<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"));
    addEntry(g, user(prompt));
    addEntry(g, event(prompt));
    expect(g.userRequests).toBe(1);
    expect(g.firstRequest).toContain("Review only the current uncommitted decision-file rename lineage feature");
    // Codex's own context, even with a user_message event of other words after it, stays no request.
    addEntry(g, user("<environment_context>\n  <current_date>2026-08-17</current_date>\n</environment_context>"));
    addEntry(g, event("Fix the build."));
    expect(g.userRequests).toBe(1);
  });
  test("exit codes and patched files", () => {
    expect(execExitCode("Chunk ID: 1\nProcess exited with code 2\nOutput:\nx")).toBe(2);
    expect(execExitCode("Exit code: 0\nWall time: 0 seconds")).toBe(0);
    expect(execExitCode("no code")).toBeUndefined();
    expect(patchFiles("*** Begin Patch\n*** Update File: a.ts\n@@\n*** Delete File: b.ts\n*** End Patch")).toEqual([
      { op: "update", path: "a.ts" },
      { op: "delete", path: "b.ts" },
    ]);
  });
});
