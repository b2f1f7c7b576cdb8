/**
 * Issue 21, class 8 (truncation): a summary over its 7,500 characters drops whole items from the
 * end of its lists, each counted in "and N more", and keeps every section. Three long paths used to
 * cut it mid-path, losing "Unresolved errors" and "How to continue".
 */
import { describe, expect, test } from "bun:test";
import { mergeChain } from "../../src/core/summary/chain.ts";
import { addEntry } from "../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../src/core/summary/facts.ts";
import { renderSummary, type SummaryInput } from "../../src/core/summary/render.ts";
import { sessionTasks } from "../../src/core/summary/tasks.ts";

const SECTIONS = [
  "## Goal",
  "## Latest request",
  "## Remaining work (open tasks)",
  "## Completed tasks",
  "## Decisions and reasons (the agent's last messages)",
  "## Last meaningful step",
  "## Files modified (newest first)",
  "## Unresolved errors",
  "## This session",
  "## How to continue",
];

const user = (text: string) => ({ type: "user", message: { role: "user", content: text } });
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
});
const result = (id: string, content: string, isError = false, extra: Record<string, unknown> = {}) => ({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
  ...extra,
});
const say = (text: string) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "text", text }] },
});

function render(entries: object[], rest: Partial<SummaryInput> = {}): string {
  const f: Facts = emptyFacts();
  for (const e of entries) addEntry(f, e as Record<string, unknown>);
  const twin = mergeChain(undefined, {
    taskId: "T",
    sessionId: "s",
    listId: "s",
    links: ["s"],
    facts: f,
    tasks: sessionTasks(f, []),
    project: "/p",
    writtenAt: "2026-01-01T00:00:00.000Z",
  });
  const usage = { usedPct: 1, usedTokens: 1, windowSize: 2, peakPct: 1, compactions: 0, model: null, toolCalls: 0 };
  return renderSummary({
    facts: f,
    twin,
    team: null,
    usage,
    generatedAt: "2026-01-01T00:00:00.000Z",
    transcriptPath: null,
    gitStatus: [],
    ...rest,
  });
}

/** Every section, in order, each heading once. */
function expectSections(md: string): void {
  const lines = md.split("\n");
  const at = SECTIONS.map((h) => lines.indexOf(h));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  for (const h of SECTIONS) expect(lines.filter((l) => l === h)).toHaveLength(1);
  // "How to continue" is written from the summary's content (next-step.ts): whole, at least one step
  const next = md.slice(md.indexOf("## How to continue")).split("\n");
  expect(next[1]).toStartWith("- ");
  expect(md.endsWith("\n")).toBe(true);
}

describe("a summary over its budget", () => {
  test("three long paths: every section stays and no line is cut", () => {
    const long = (i: number) => `/p/${`dir-${i}-${"d".repeat(60)}/`.repeat(60)}file-${i}.ts`;
    const md = render([
      user("fix it"),
      ...[0, 1, 2].flatMap((i) => [use(`w${i}`, "Write", { file_path: long(i) }), result(`w${i}`, "ok")]),
      use("b1", "Bash", { command: "npm test" }),
      result("b1", "Exit code 1\nboom", true),
      user("and then the docs"),
    ]);
    expect(md.length).toBeLessThanOrEqual(7500);
    expectSections(md);
    const files = md.split("\n").filter((l) => l.startsWith("- `"));
    expect(files).toHaveLength(3);
    for (const [i, l] of files.entries())
      expect(l).toMatch(new RegExp(`file-${2 - i}\\.ts\` \\(Write; this session\\)$`));
    expect(md).toContain("- Bash `npm test`: Exit code 1 boom (this session)");
  });

  test("a long path changed in two sessions of a chain is listed once", () => {
    const path = `/p/${"d".repeat(3000)}/main.ts`;
    const session = (sid: string, links: string[], prev?: ReturnType<typeof mergeChain>) => {
      const f: Facts = emptyFacts();
      for (const e of [use("w", "Edit", { file_path: path }), result("w", "ok")]) addEntry(f, e);
      const part = { taskId: "T", sessionId: sid, listId: sid, links, facts: f, tasks: [], project: "/p" };
      return mergeChain(prev, { ...part, writtenAt: "2026-01-01T00:00:00.000Z" });
    };
    const second = session("s2", ["s1", "s2"], session("s1", ["s1"]));
    expect(second.files).toHaveLength(1);
    expect(second.files[0]!.path.endsWith("/main.ts")).toBe(true);
  });

  test("every list at its longest: whole items are dropped from the end and counted, sections all kept", () => {
    const entries: object[] = [user(`goal ${"g".repeat(2000)}`)];
    for (let i = 0; i < 400; i++) {
      entries.push(use(`w${i}`, "Write", { file_path: `/p/${"f".repeat(500)}-${i}.ts` }), result(`w${i}`, "ok"));
      entries.push(
        use(`b${i}`, "Bash", { command: `make ${i} ${"x".repeat(400)}` }),
        result(`b${i}`, `Exit code 1\n${"boom ".repeat(100)}`, true),
      );
      if (i < 250)
        entries.push(
          use(`c${i}`, "TaskCreate", { subject: `task ${i} ${"y".repeat(300)}` }),
          result(`c${i}`, `Task #${i + 1} created successfully`),
        );
      entries.push(say(`decision ${i} ${"z".repeat(900)}`));
    }
    entries.push(user(`latest ${"l".repeat(2000)}`));
    const md = render(entries, {
      team: "t".repeat(3000),
      previousSummary: `/p/.ctx/sessions/${"s".repeat(3000)}.md`,
      transcriptPath: `/t/${"t".repeat(3000)}.jsonl`,
      gitStatus: Array.from({ length: 500 }, (_, i) => ` M ${"g".repeat(800)}-${i}.ts`),
      subagentLine: `- Subagents: ${"a".repeat(3000)}`,
      commandChanges: Array.from({ length: 300 }, (_, i) => `${"c".repeat(900)}-${i}.ts`),
    });
    expect(md.length).toBeLessThanOrEqual(7500);
    expectSections(md);
    const more = (what: string) => Number(new RegExp(`^- and (\\d+) more ${what}$`, "m").exec(md)?.[1] ?? -1);
    const shown = (re: RegExp) => md.split("\n").filter((l) => re.test(l)).length;
    expect(shown(/^- \[ \] #\d+ task /) + more("open tasks")).toBe(250);
    expect(shown(/^- `\/?p?\/?f+/) + more("files")).toBe(400);
    expect(shown(/^- FAIL `make /) + more("commands")).toBe(400);
    // every file line is whole (How to continue, written from the content, has lines of its own)
    const listed = md.slice(0, md.indexOf("## How to continue"));
    for (const l of listed.split("\n").filter((x) => x.startsWith("- `"))) expect(l).toMatch(/\)$/);
  });
});
