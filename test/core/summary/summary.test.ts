import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import type { SummaryInput } from "../../../src/core/summary/render.ts";
import { mergedTasks } from "../../../src/core/summary/tasks.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { renderSession } from "../../helpers/summary.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "transcripts");

function factsOf(entries: Array<Record<string, unknown>>): Facts {
  const f = emptyFacts();
  for (const e of entries) addEntry(f, e);
  return f;
}
function factsOfFile(name: string): Facts {
  const f = emptyFacts();
  streamEntries(join(FIXTURES, name), (e) => addEntry(f, e));
  return f;
}
function render(f: Facts, over: Partial<SummaryInput> = {}): string {
  return renderSession(
    f,
    {
      team: "blue",
      generatedAt: "2026-01-01T00:00:00.000Z",
      usage: {
        usedPct: 91,
        usedTokens: 182000,
        windowSize: 200000,
        peakPct: 93,
        compactions: 1,
        model: "claude-sonnet-4-5",
        toolCalls: 7,
      },
      transcriptPath: "/t.jsonl",
      gitStatus: null,
      ...over,
    },
    { taskId: "T-1", sessionId: "s1", links: ["s0", "s1"], project: "/tmp/probe" },
  );
}
const use = (id: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  message: { id: `m_${id}`, model: "m", content: [{ type: "tool_use", id, name, input }] },
  ...extra,
});
const result = (id: string, content: string, isError = false, extra: Record<string, unknown> = {}) => ({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
  ...extra,
});
const user = (text: string, extra: Record<string, unknown> = {}) => ({
  type: "user",
  message: { role: "user", content: text },
  ...extra,
});

describe("summary of a recorded transcript (TaskCreate/TaskUpdate, Write, a failing Bash)", () => {
  const f = factsOfFile("track-basic.jsonl");
  const md = render(f);
  test("has every section", () => {
    for (const h of [
      "## Goal",
      "## Remaining work (open tasks)",
      "## Completed tasks",
      "## Decisions and reasons",
      "## Last meaningful step",
      "## Files modified",
      "## Unresolved errors",
      "## This session",
    ])
      expect(md).toContain(h);
    expect(md).toContain("- Task: T-1");
    expect(md).toContain("- Team: blue");
    expect(md).toContain("- Sessions (2, oldest first): s0 → s1");
    expect(md).toContain("91% used (182000 / 200000 tokens");
  });
  test("finds the request, the completed task, the file, the failed lookup and the last step", () => {
    expect(f.firstRequest).toStartWith("Please create hello.txt");
    expect(md).toContain("- [x] #1 Write hello");
    expect(md).toContain("`hello.txt` (Write; this session)");
    // `ls` of a missing path is a lookup: a failed call, never an open error (docs/track-finalize.md).
    expect(md).toContain("## Unresolved errors\n- (none)");
    expect(md).toContain("FAIL `ls /nonexistent`");
    expect(md).toContain("- Write hello.txt (this session)");
    expect(md).toContain("(no open tasks recorded)");
  });
});

describe("addEntry()", () => {
  test("a failed Edit is an error, not a modified file; MultiEdit and NotebookEdit count", () => {
    const f = factsOf([
      use("a", "Edit", { file_path: "/x.ts", old_string: "a", new_string: "b" }),
      result("a", "String not found", true),
      use("b", "MultiEdit", { file_path: "/y.ts", edits: [] }),
      result("b", "ok"),
      use("c", "NotebookEdit", { notebook_path: "/n.ipynb" }),
      result("c", "ok"),
      use("d", "Read", { file_path: "/z.ts" }),
      result("d", "contents"),
    ]);
    expect([...f.files.keys()]).toEqual(["/y.ts", "/n.ipynb"]);
    expect(f.errors.items[0]).toMatchObject({ tool: "Edit", target: "/x.ts", message: "String not found" });
  });

  test("sidechain lines do not change the user's requests or the agent's message, but their edits count", () => {
    const f = factsOf([
      user("Build the parser"),
      user("subagent prompt", { isSidechain: true }),
      { type: "assistant", isSidechain: true, message: { content: [{ type: "text", text: "subagent talk" }] } },
      use("s", "Write", { file_path: "/sub.ts" }, { isSidechain: true }),
      result("s", "ok", false, { isSidechain: true }),
      { type: "assistant", message: { content: [{ type: "text", text: "main says hi" }] } },
    ]);
    expect([f.firstRequest, f.lastRequest, f.lastAgentText]).toEqual([
      "Build the parser",
      "Build the parser",
      "main says hi",
    ]);
    expect(f.files.has("/sub.ts")).toBe(true);
    expect(f.sidechainLines).toBe(4);
  });

  test("a compaction boundary is counted and its summary line is not a user request", () => {
    const f = factsOf([
      user("first ask"),
      { type: "system", subtype: "compact_boundary", compactMetadata: { preTokens: 180000, postTokens: 20000 } },
      user("This session is being continued from a previous conversation…", { isCompactSummary: true }),
      user("<command-name>/compact</command-name>"),
      user([
        { type: "text", text: "<system-reminder>x</system-reminder>" },
        { type: "text", text: "then add tests" },
      ] as never),
    ]);
    expect(f.compactions).toBe(1);
    expect(f.firstRequest).toBe("first ask");
    expect(f.lastRequest).toBe("then add tests");
    expect(f.userRequests).toBe(2);
  });

  test("TodoWrite snapshots give the task list on older clients", () => {
    const f = factsOf([
      use("t1", "TodoWrite", {
        todos: [
          { content: "parse", status: "completed" },
          { content: "test", status: "in_progress" },
          { content: "ship", status: "pending" },
        ],
      }),
      result("t1", "Todos have been modified successfully"),
    ]);
    const md = render(f);
    expect(md).toContain("- [x] #1 parse");
    expect(md).toContain("- [ ] #2 test (in progress)");
    expect(md).toContain("- [ ] #3 ship");
  });

  test("task files on disk override the transcript's view", () => {
    const f = factsOf([use("c1", "TaskCreate", { subject: "one" }), result("c1", "Task #1 created successfully: one")]);
    expect(mergedTasks(f, [])).toEqual([{ id: "1", subject: "one", status: "pending" }]);
    expect(
      mergedTasks(f, [
        { id: "1", subject: "one", status: "completed" },
        { id: "2", subject: "two", status: "deleted" },
      ]),
    ).toEqual([{ id: "1", subject: "one", status: "completed" }]);
  });
});

describe("renderSummary()", () => {
  test("stays under ~2,000 tokens for a long session, keeping the newest items and counting the rest", () => {
    const entries: Array<Record<string, unknown>> = [user("start the big job")];
    for (let i = 0; i < 3000; i++) {
      entries.push(use(`w${i}`, "Write", { file_path: `/src/file-${i}-${"x".repeat(60)}.ts` }), result(`w${i}`, "ok"));
      entries.push(
        use(`b${i}`, "Bash", { command: `make step-${i} ${"--flag ".repeat(30)}` }),
        result(`b${i}`, `Exit code 1\n${"boom ".repeat(80)}`, i % 2 === 0),
      );
      entries.push(
        use(`c${i}`, "TaskCreate", { subject: `task ${i} ${"y".repeat(80)}` }),
        result(`c${i}`, `Task #${i + 1} created successfully`),
      );
    }
    entries.push(user("and finish it"));
    const md = render(factsOf(entries), { gitStatus: Array.from({ length: 500 }, (_, i) => ` M src/f${i}.ts`) });
    expect(md.length).toBeLessThanOrEqual(7500);
    expect(md).toContain("/src/file-2999-");
    expect(md).toMatch(/- and \d+ more files/);
    expect(md).toContain("> and finish it");
    expect(md).toContain("## This session");
  });
});
