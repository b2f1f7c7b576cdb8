import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts } from "../../../src/core/summary/facts.ts";
import { addSubagentEntry, emptySubagentWork, subagentLine } from "../../../src/core/summary/subagents.ts";
import { readSubagentWork } from "../../../src/io/finalize/inputs.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { renderSession } from "../../helpers/summary.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "transcripts");

describe("subagent work in the handoff summary", () => {
  test("the recorded subagent session: one run, one Bash call, read from <session>/subagents/", () => {
    // The fixture's directory is named like the file stem, as the client names it after the session id.
    const work = readSubagentWork(join(FIXTURES, "subagent-session.jsonl"), "subagent-session");
    expect(work.runs).toBe(1);
    expect(work.toolCalls).toBe(1);
    expect(work.tools).toEqual({ Bash: 1 });
    expect(subagentLine(work, 1)).toBe("- Subagents: 1 subagent run, 1 tool call (Bash)");
  });

  test("counts each tool_use id once, failures, and falls back to the tracked count", () => {
    const w = emptySubagentWork();
    const use = (id: string, name: string) => ({
      type: "assistant",
      isSidechain: true,
      message: { content: [{ type: "tool_use", id, name, input: {} }] },
    });
    for (const e of [use("a", "Bash"), use("a", "Bash"), use("b", "Write"), use("c", "Bash")]) addSubagentEntry(w, e);
    addSubagentEntry(w, {
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "c", is_error: true, content: "Exit code 1" }] },
    });
    w.runs = 2;
    expect(subagentLine(w, 0)).toBe("- Subagents: 2 subagent runs, 3 tool calls (Bash ×2, Write), 1 failed");
    expect(subagentLine(emptySubagentWork(), 0)).toBeNull();
    expect(subagentLine(emptySubagentWork(), 4)).toBe("- Subagents: 4 tool calls");
    // Runs the parent transcript shows (Task/Agent calls answered) when their own transcripts are not at hand.
    expect(subagentLine(emptySubagentWork(), 0, 4)).toBe(
      "- Subagents: 4 subagent runs (counted in the parent transcript: their own transcripts are not at hand)",
    );
    expect(subagentLine(w, 0, 1)).toBe("- Subagents: 2 subagent runs, 3 tool calls (Bash ×2, Write), 1 failed");
  });

  test("no subagent directory, or an unusable session id: nothing", () => {
    expect(readSubagentWork(join(FIXTURES, "tools-session.jsonl"), "tools-session").runs).toBe(0);
    expect(readSubagentWork(join(FIXTURES, "subagent-session.jsonl"), "../subagent-session").runs).toBe(0);
    expect(readSubagentWork(undefined, "s").runs).toBe(0);
  });

  test("the line sits under This session, once", () => {
    const f = emptyFacts();
    streamEntries(join(FIXTURES, "subagent-session.jsonl"), (e) => addEntry(f, e));
    const work = readSubagentWork(join(FIXTURES, "subagent-session.jsonl"), "subagent-session");
    const text = renderSession(f, {
      team: null,
      usage: {
        usedPct: 5,
        usedTokens: 9000,
        windowSize: 200000,
        peakPct: 5,
        compactions: 0,
        model: null,
        toolCalls: 1,
      },
      generatedAt: "2026-01-01T00:00:00.000Z",
      transcriptPath: null,
      gitStatus: null,
      subagentLine: subagentLine(work, 0),
    });
    const progress = text.slice(text.indexOf("## This session"), text.indexOf("## How to continue"));
    expect(progress.match(/- Subagents: /g)).toHaveLength(1);
    expect(progress).toContain("1 subagent run, 1 tool call (Bash)");
  });
});

test("2.1.328's <task-notification> (an async subagent finished) is not a user request", () => {
  const f = emptyFacts();
  addEntry(f, { type: "user", message: { role: "user", content: "Ask a subagent for the answer." } });
  addEntry(f, {
    type: "user",
    message: {
      role: "user",
      content: "<task-notification> <task-id>a99c</task-id> <status>completed</status> <result>done</result>",
    },
  });
  expect(f.userRequests).toBe(1);
  expect(f.goal).toBe("Ask a subagent for the answer.");
  expect(f.latestReal).toBe("Ask a subagent for the answer.");
});
