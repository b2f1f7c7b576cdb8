import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts } from "../../../src/core/summary/facts.ts";
import {
  addSubagentEntry,
  emptySubagentCalls,
  emptySubagentWork,
  noteSubagentCall,
  subagentCallCount,
  subagentLine,
} from "../../../src/core/summary/subagents.ts";
import { readSubagentWork } from "../../../src/io/finalize/inputs.ts";
import { corpusPath } from "./lines.ts";
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
    // The runs the main chain started (its Task/Agent calls) count when known, their transcripts or not.
    expect(subagentLine(emptySubagentWork(), 0, 4)).toBe("- Subagents: 4 subagent runs");
    expect(subagentLine(w, 0, 1)).toBe("- Subagents: 1 subagent run, 3 tool calls (Bash ×2, Write), 1 failed");
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

/** Whole lines of a development-half transcript in bench/corpus (its README names the source and license). */
function corpusLines(file: string, from: number, to: number): Array<Record<string, any>> {
  const text = readFileSync(join(import.meta.dir, "..", "..", "..", "bench", "corpus", file), "utf8").split("\n");
  return text.slice(from - 1, to).map((l) => JSON.parse(l) as Record<string, any>);
}

describe("subagent runs: the Task/Agent calls of the main chain", () => {
  test("entire-cli 847ff7d2 (Claude Code 2.0.76), lines 31-42: six background Task calls, no transcripts at hand", () => {
    const c = emptySubagentCalls();
    const lines = corpusLines("entire-cli/2026-01-05-847ff7d2-4a55-44d7-a3f5-a3afd89f1ee1.jsonl", 31, 42);
    expect(lines[0]!.message.content[0].input.run_in_background).toBe(true);
    for (const e of lines) noteSubagentCall(c, e);
    expect(subagentCallCount(c)).toBe(6);
    // The checkpoint holds no subagents/ folder: the count stands alone.
    expect(subagentLine(emptySubagentWork(), 0, subagentCallCount(c))).toBe("- Subagents: 6 subagent runs");
  });

  test("git-sync 4f8f5e9b (Claude Code 2.1.183), lines 450-457: the newer `Agent` tool, four forks", () => {
    const c = emptySubagentCalls();
    const lines = corpusLines("git-sync/4f8f5e9b-9f90-4c22-88b9-988c55f45833.jsonl", 450, 457);
    expect(lines[0]!.message.content[0].name).toBe("Agent");
    for (const e of [...lines, ...lines]) noteSubagentCall(c, e); // each id once
    expect(subagentCallCount(c)).toBe(4);
  });

  test("spotter 258c7280: one Task call; the compaction agent's transcript is no run", () => {
    const path = corpusPath("spotter", "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const c = emptySubagentCalls();
    streamEntries(path, (e) => noteSubagentCall(c, e));
    expect(subagentCallCount(c)).toBe(1);
    const work = readSubagentWork(path, "258c7280-ae70-4798-800f-63464d01a85d");
    expect(work.runs).toBe(1); // agent-a881341.jsonl, not agent-acompact-fffbd0.jsonl
    expect(subagentLine(work, 0, subagentCallCount(c))).toStartWith("- Subagents: 1 subagent run, ");
  });

  test("a call the user rejected started nothing; a sidechain's call is the subagent's own", () => {
    const c = emptySubagentCalls();
    const call = (id: string, sidechain = false) => ({
      type: "assistant",
      isSidechain: sidechain,
      message: { content: [{ type: "tool_use", id, name: "Agent", input: { prompt: "look" } }] },
    });
    noteSubagentCall(c, call("a"));
    noteSubagentCall(c, call("b"));
    noteSubagentCall(c, call("c", true));
    // Claude Code's answer to a turned-down call.
    const rejection =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
    noteSubagentCall(c, {
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "b", is_error: true, content: rejection }] },
    });
    expect(subagentCallCount(c)).toBe(1);
  });

  test("Codex: spawn_agent function calls", () => {
    const c = emptySubagentCalls();
    const spawn = (id: string, name = "spawn_agent") => ({
      type: "response_item",
      payload: { type: "function_call", name, call_id: id, arguments: "{}" },
    });
    for (const e of [spawn("call_1"), spawn("call_2"), spawn("call_3", "exec_command")]) noteSubagentCall(c, e);
    expect(subagentCallCount(c)).toBe(2);
  });

  // The outputs of Codex 0.147.0 (teslamint/entirecontext, MIT: bench/corpus/entirecontext/01a00ba5-….jsonl,
  // lines 43, 47 and 208): a started agent's JSON, a refused argument, the thread limit.
  test("Codex: a spawn_agent the client refused started nothing; one still waiting for its output counts", () => {
    const c = emptySubagentCalls();
    const spawn = (id: string) => ({
      type: "response_item",
      payload: { type: "function_call", name: "spawn_agent", call_id: id, arguments: "{}" },
    });
    const output = (id: string, text: string) => ({
      type: "response_item",
      payload: { type: "function_call_output", call_id: id, output: text },
    });
    const lines = [
      spawn("a"),
      output(
        "a",
        "Full-history forked agents inherit the parent agent type; omit agent_type, or spawn without a full-history fork.",
      ),
      spawn("b"),
      output("b", '{"task_name":"/root/correctness_adversarial"}'),
      spawn("c"),
      output("c", "collab spawn failed: agent thread limit reached"),
      spawn("d"), // the session ended before its output
      output("x", "not a spawn's output"),
    ];
    for (const e of lines) noteSubagentCall(c, e);
    expect(subagentCallCount(c)).toBe(2);
  });
});
