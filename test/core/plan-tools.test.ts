/**
 * Where a session keeps its plan (issue 27, item 6; docs/plan-tools.md): read from the tools its
 * transcript shows, on transcripts the real Claude Code 2.1.332 wrote offline against the fake API
 * (test/fixtures/plan-tools/, see test/fixtures/README.md).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { agentText } from "../../src/core/levels.ts";
import { planClause, planStore } from "../../src/core/plan-tools.ts";
import { mergeChain } from "../../src/core/summary/chain.ts";
import { addEntry } from "../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../src/core/summary/facts.ts";
import { openWorkLines } from "../../src/core/summary/next-step.ts";
import { notePlanText } from "../../src/core/summary/plan.ts";
import { sessionTasks } from "../../src/core/summary/tasks.ts";
import { sessionTools } from "../../src/io/transcript/session-tools.ts";
import { streamEntries } from "../../src/io/transcript/stream.ts";

const FIX = join(import.meta.dir, "..", "fixtures");
const DEFAULT = join(FIX, "plan-tools", "2.1.332-headless-default.jsonl");
const ALLOW = join(FIX, "plan-tools", "2.1.332-headless-allow.jsonl");
const OLDER = join(FIX, "transcripts", "spotter-user-lines.jsonl");

function read(path: string): Facts {
  const f = emptyFacts();
  streamEntries(path, (e, n) => addEntry(f, e, n));
  return f;
}

describe("the tools a session had, from its transcript", () => {
  test("2.1.332 on its default model: no task tool (first request, deferred list, the refusal)", () => {
    const t = sessionTools(DEFAULT);
    expect(t.known).toBe(true);
    expect([...t.tools]).toContain("ToolSearch");
    expect([...t.tools]).toContain("Workflow");
    expect(t.tools.has("TaskCreate") || t.deferred.has("TaskCreate")).toBe(false);
    expect(t.refused.has("TaskCreate")).toBe(true);
    expect(planStore(t)).toBe("none");
  });

  test("2.1.332 with TaskCreate named in --allowedTools: the task tools are deferred tools", () => {
    const t = sessionTools(ALLOW);
    expect([...t.deferred]).toEqual(expect.arrayContaining(["TaskCreate", "TaskUpdate", "TaskList", "TaskGet"]));
    expect(planStore(t)).toBe("tasks");
  });

  test("an older client's transcript lists no tools: nothing is claimed", () => {
    expect(planStore(sessionTools(OLDER))).toBe("unknown");
    expect(planClause("unknown")).toBe("update the task list with exactly what remains");
  });
});

describe("the CRITICAL message says how to save the plan with the session's own tools", () => {
  test("no task tool: a numbered list in the reply; task tools: TaskCreate / TaskUpdate", () => {
    const none = agentText("critical", 80, 20, undefined, planClause("none"));
    expect(none).toContain("this session has no task tool, so write exactly what remains as a numbered list");
    expect(none).not.toContain("update the task list");
    expect(agentText("critical", 80, 20, undefined, planClause("tasks"))).toContain("(TaskCreate / TaskUpdate;");
    expect(agentText("critical", 80, 20)).toContain("update the task list with exactly what remains, and do not");
  });
});

describe("the plan of a session without a task tool is carried as its open tasks", () => {
  test("the agent's numbered list becomes the open tasks, marked as the agent's own list", () => {
    const f = read(DEFAULT);
    const tasks = sessionTasks(f, []);
    expect(tasks.map((t) => [t.id, t.subject, t.status, t.list])).toEqual([
      ["p1", "parse", "pending", "plan"],
      ["p2", "test", "pending", "plan"],
    ]);
    const twin = mergeChain(undefined, {
      taskId: "T",
      sessionId: "s",
      listId: "s",
      links: ["s"],
      facts: f,
      tasks,
      project: "/p",
      writtenAt: "2026-01-01T00:00:00.000Z",
    });
    expect(twin.open_tasks.map((t) => t.list)).toEqual(["plan", "plan"]);
    expect(twin.open_tasks[0]?.evidence?.length).toBe(1);
    expect(openWorkLines(twin, null)[0]).toContain("the session had no task tool");
  });

  test("a numbered report of work done is no plan: items that start with a past-tense verb are completed", () => {
    const f = read(DEFAULT); // a session with no task tool
    f.planText = {
      text: "All done. Summary of changes:\n1. **Added** the `--strict` flag\n2. Fixed the exit code\n3. Document the flag in the README",
      line: 9,
    };
    expect(sessionTasks(f, []).map((t) => [t.id, t.status])).toEqual([
      ["p1", "completed"],
      ["p2", "completed"],
      ["p3", "pending"],
    ]);
  });

  test("a list in a message that reports work finished is what was done, not a plan", () => {
    // The shape of entire-graph 592b4ec7 (bench/corpus), line 328: "Done. All four minor findings …
    // are addressed", then "The fixes, in commit `13642bf`:" over items that open with a noun.
    const tasks = (text: string) => {
      const f = read(DEFAULT);
      notePlanText(f, text);
      return sessionTasks(f, []).map((t) => t.status);
    };
    expect(
      tasks(
        "Done. All four findings are addressed.\n\n**The fixes, in commit `13642bf`:**\n\n1. **Parity comment**: now says so\n2. **Error wording**: no longer claims it",
      ),
    ).toEqual(["completed", "completed"]);
    expect(tasks("Shipped in PR #48.\n1. Cache version bump\n2. Fallback warning noise")).toEqual([
      "completed",
      "completed",
    ]);
    expect(tasks("I looked at the trail.\n\nWhat was changed:\n1. Parity comment\n2. Error wording")).toEqual([
      "completed",
      "completed",
    ]);
    // A plan stays a plan: a heading that looks ahead, or none.
    expect(tasks("Next steps:\n1. Parity comment\n2. Error wording")).toEqual(["pending", "pending"]);
    expect(tasks("Here is the plan.\n1. Parity comment\n2. Error wording")).toEqual(["pending", "pending"]);
  });

  test("a session that had the task tools keeps its task list, never the text", () => {
    const f = read(ALLOW); // the same numbered list; TaskCreate (deferred) created task #1 "s"
    expect(f.planText).not.toBeNull();
    expect(sessionTasks(f, []).map((t) => [t.id, t.subject, t.list])).toEqual([["1", "s", undefined]]);
  });
});
