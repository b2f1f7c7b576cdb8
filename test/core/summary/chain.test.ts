import { describe, expect, test } from "bun:test";
import { mergeChain, mergeTasks, type SummaryTwin } from "../../../src/core/summary/chain.ts";
import { parseTwin } from "../../../src/core/summary/twin.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { isMeaningfulCommand, isOwnPrompt } from "../../../src/core/summary/goal.ts";
import { renderSummary } from "../../../src/core/summary/render.ts";
import { sessionTasks } from "../../../src/core/summary/tasks.ts";
import { buildResumePrompt } from "../../../src/core/resume/prompt.ts";
import { SCHEMA } from "../../../src/core/config-schema.ts";

const KICKSTART = SCHEMA["respawn.kickstart_prompt"].default;
const OWN = [KICKSTART, SCHEMA["respawn.update_prompt"].default, SCHEMA["respawn.compact_prompt"].default];

let n = 0;
const user = (text: string) => ({ type: "user", message: { role: "user", content: text } });
const agent = (text: string) => ({ type: "assistant", message: { content: [{ type: "text", text }] } });
/** A tool call and its result. */
function call(name: string, input: Record<string, unknown>, out = "ok", isError = false, structured?: unknown) {
  const id = `toolu_${++n}`;
  return [
    { type: "assistant", message: { content: [{ type: "tool_use", id, name, input }] } },
    {
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: out, is_error: isError }] },
      toolUseResult: structured,
    },
  ];
}
const create = (id: string, subject: string) =>
  call("TaskCreate", { subject }, `Task #${id} created successfully: ${subject}`);
const update = (id: string, fields: Record<string, unknown>) => call("TaskUpdate", { taskId: id, ...fields });

function facts(entries: Array<Record<string, unknown> | Array<Record<string, unknown>>>): Facts {
  const f = emptyFacts(OWN);
  for (const e of entries.flat()) addEntry(f, e);
  return f;
}
/** One session of a chain folded into the previous twin. */
function session(prev: SummaryTwin | undefined, id: string, f: Facts, list = id): SummaryTwin {
  return mergeChain(prev, {
    taskId: "chain-abc",
    sessionId: id,
    listId: list,
    links: [...(prev?.sessions ?? []), id],
    facts: f,
    tasks: sessionTasks(f, []),
    project: "/work/proj",
    writtenAt: "2026-11-30T12:00:00.000Z",
  });
}
const subjects = (ts: Array<{ subject: string }>) => ts.map((t) => t.subject);

describe("goal extraction", () => {
  test("ctx's own prompts and continue-style one-liners are never the goal", () => {
    for (const t of [
      KICKSTART,
      SCHEMA["respawn.update_prompt"].default,
      "continue",
      "Continue.",
      "ok, continue please",
      "go on",
      "keep going!",
      buildResumePrompt("# Handoff summary: x", "/p/.ctx/sessions/summary-x.md"),
    ])
      expect(isOwnPrompt(t, OWN)).toBe(true);
    for (const t of ["Build the alpaca exporter", "continue with the bison importer, but use CSV instead of JSON"])
      expect(isOwnPrompt(t, OWN)).toBe(false);
  });

  test("the goal is the chain's first real request; a change of direction is the latest request", () => {
    const one = session(undefined, "s1", facts([user(KICKSTART), user("Build the alpaca exporter"), user("continue")]));
    expect(one.goal).toBe("Build the alpaca exporter");
    expect(one.latest_request).toBeNull();
    const two = session(one, "s2", facts([user(KICKSTART), user("continue")]));
    expect(two.goal).toBe("Build the alpaca exporter");
    expect(two.latest_request).toBeNull();
    const three = session(two, "s3", facts([user("Now also export to parquet")]));
    expect([three.goal, three.latest_request]).toEqual(["Build the alpaca exporter", "Now also export to parquet"]);
  });
});

describe("task merge across the chain", () => {
  const first = session(
    undefined,
    "s1",
    facts([
      user("Build the exporter"),
      create("1", "Write the parser"),
      create("2", "Write the exporter"),
      create("3", "Write the docs"),
      create("4", "Benchmark"),
      update("1", { status: "completed" }),
    ]),
  );

  test("a task completed in session 1 is never open again", () => {
    expect(subjects(first.open_tasks)).toEqual(["Write the exporter", "Write the docs", "Benchmark"]);
    expect(subjects(first.completed_tasks)).toEqual(["Write the parser"]);
    // Session 2 re-creates every task the prompt listed, and (by mistake) the completed one too.
    const second = session(
      first,
      "s2",
      facts([create("1", "Write the exporter"), create("2", "Write the parser"), create("3", "Write the docs")]),
    );
    expect(subjects(second.open_tasks)).toEqual(["Write the exporter", "Write the docs", "Benchmark"]);
  });

  test("completed, deleted, renamed (same list) and new tasks", () => {
    // Same task list (CLAUDE_CODE_TASK_LIST_ID survived): ids match.
    const second = session(
      first,
      "s2",
      facts([
        update("2", { status: "completed" }),
        update("4", { status: "deleted" }),
        update("3", { subject: "Write the user guide", status: "in_progress" }),
        create("5", "Release"),
      ]),
      "s1",
    );
    expect(subjects(second.open_tasks)).toEqual(["Write the user guide", "Release"]);
    expect(second.open_tasks[0]!.status).toBe("in_progress");
    expect(subjects(second.completed_tasks)).toEqual(["Write the parser", "Write the exporter"]);
  });

  test("in a new task list ids do not match: re-created tasks match by subject", () => {
    const f = facts([create("1", "Write the docs"), update("1", { status: "completed" }), create("2", "Release")]);
    const second = session(first, "s2", f);
    // #1 of the new list is "Write the docs", not the old #1 "Write the parser".
    expect(subjects(second.open_tasks)).toEqual(["Write the exporter", "Benchmark", "Release"]);
    expect(subjects(second.completed_tasks)).toEqual(["Write the parser", "Write the docs"]);
  });

  test("mergeTasks keeps the previous open tasks when the session touched none", () => {
    const r = mergeTasks(first, { tasks: [], listId: "s2" });
    expect(subjects(r.open)).toEqual(subjects(first.open_tasks));
  });
});

describe("files, errors, decisions, last step", () => {
  test("files across the chain (newest first, sessions ago), errors resolved later, paths relative", () => {
    const one = session(
      undefined,
      "s1",
      facts([
        user("go"),
        call("Write", { file_path: "/work/proj/src/a.ts" }),
        call("Bash", { command: "npm test" }, "Exit code 1\nfail", true),
        call("Bash", { command: "make lint" }, "Exit code 2\nlint", true),
        call("Edit", { file_path: "/work/proj/src/b.ts" }),
        call("Bash", { command: "git status --short" }),
        agent("I chose CSV because the target has no JSON support."),
      ]),
    );
    expect(one.last_step?.text).toBe("Edit src/b.ts");
    expect(one.errors.map((e) => e.target)).toEqual(["make lint", "npm test"]);
    const two = session(
      one,
      "s2",
      facts([
        call("Write", { file_path: "/work/proj/src/c.ts" }),
        call("Bash", { command: "npm test" }),
        call("Bash", { command: "ls" }),
      ]),
    );
    expect(two.files.map((f) => [f.path, f.session])).toEqual([
      ["src/c.ts", 1],
      ["src/b.ts", 0],
      ["src/a.ts", 0],
    ]);
    expect(two.errors.map((e) => e.target)).toEqual(["make lint"]);
    expect(two.last_step?.text).toBe("Bash npm test");
    expect(two.decisions).toEqual(["I chose CSV because the target has no JSON support."]);
    expect(parseTwin(JSON.parse(JSON.stringify(two)))).toEqual(two);
  });

  test("pure reads are not meaningful steps", () => {
    for (const c of ["ls -la", "cat a.txt", "git status", "git diff HEAD", "cd src && ls", "grep -r x . | head"])
      expect(isMeaningfulCommand(c)).toBe(false);
    for (const c of ["npm test", "git commit -m x", "cat a > b", "mkdir out", "ls && rm x"])
      expect(isMeaningfulCommand(c)).toBe(true);
  });
});

describe("a 40-session chain", () => {
  test("stays under ~8,000 characters, newest first, older items counted", () => {
    let twin: SummaryTwin | undefined;
    let f: Facts = emptyFacts(OWN);
    for (let s = 0; s < 40; s++) {
      const entries: Array<Array<Record<string, unknown>> | Record<string, unknown>> = [
        user(s === 0 ? "Port the whole code base to the new storage layer" : KICKSTART),
      ];
      for (let i = 0; i < 5; i++) {
        entries.push(call("Edit", { file_path: `/work/proj/src/module-${s}-${i}-${"x".repeat(40)}.ts` }));
        entries.push(call("Bash", { command: `make check-${s}-${i}` }, "Exit code 1\nboom", true));
      }
      entries.push(create(String(s + 1), `Port module ${s} ${"y".repeat(60)}`));
      if (s % 2 === 1) entries.push(update(String(s + 1), { status: "completed" }));
      entries.push(agent(`Session ${s}: ${"because ".repeat(60)}`));
      f = facts(entries);
      twin = session(twin, `session-${String(s).padStart(2, "0")}-${"0".repeat(28)}`, f);
    }
    const md = renderSummary({
      facts: f,
      twin: twin!,
      team: null,
      previousSummary: "/work/proj/.ctx/sessions/summary-chain-abc-20261130-120000.md",
      usage: {
        usedPct: 91,
        usedTokens: 182000,
        windowSize: 200000,
        peakPct: 93,
        compactions: 0,
        model: null,
        toolCalls: 12,
      },
      generatedAt: "2026-11-30T12:00:00.000Z",
      transcriptPath: "/t.jsonl",
      gitStatus: Array.from({ length: 300 }, (_, i) => ` M src/f${i}.ts`),
    });
    expect(md.length).toBeLessThan(8000);
    expect(md).toContain("> Port the whole code base to the new storage layer");
    expect(md).toContain("Sessions (40, oldest first): session-00-");
    expect(md).toMatch(/- and \d+ more files/);
    for (const t of twin!.open_tasks) expect(md).toContain(`#${t.id} ${t.subject}`);
    // The newest file first.
    const files = md.slice(md.indexOf("## Files modified"));
    expect(files.split("\n")[1]).toContain("src/module-39-4-");
    expect(twin!.open_tasks.length).toBe(20);
    expect(twin!.completed_tasks.length).toBe(20);
  });
});
