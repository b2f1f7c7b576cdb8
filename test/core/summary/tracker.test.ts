/**
 * Work kept in a command-line tracker, and "How to continue". The real excerpts in
 * test/fixtures/spotter-errors/ come from github.com/marot/spotter (MIT), commit
 * 8cc42b0bd39d04e71e509d7d58e6782ab435329f, test/fixtures/transcripts/: see the README there.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { taskListNote } from "../../../src/core/resume/prompt.ts";
import { mergeChain, type SummaryTwin } from "../../../src/core/summary/chain.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { howToContinue, trackerLines } from "../../../src/core/summary/next-step.ts";
import { onTrackerCommand, type TrackerState } from "../../../src/core/summary/tracker.ts";
import { parseTwin } from "../../../src/core/summary/twin.ts";
import { renderSession } from "../../helpers/summary.ts";

const SPOTTER = join(import.meta.dir, "..", "..", "fixtures", "spotter-errors");

function factsOfExcerpt(name: string): Facts {
  const f = emptyFacts();
  for (const line of readFileSync(join(SPOTTER, name), "utf8").trim().split("\n")) addEntry(f, JSON.parse(line));
  return f;
}
function twinOf(f: Facts, sessionId = "s1", prev?: SummaryTwin, tasks = [] as SummaryTwin["open_tasks"]): SummaryTwin {
  return mergeChain(prev, {
    taskId: "T",
    sessionId,
    listId: "L",
    links: [...(prev?.sessions ?? []), sessionId],
    facts: f,
    tasks,
    project: "/p",
    writtenAt: "2026-01-01T00:00:00.000Z",
  });
}
function render(f: Facts, gitStatus: string[] | null = null): string {
  return renderSession(f, {
    team: null,
    generatedAt: "2026-01-01T00:00:00.000Z",
    usage: {
      usedPct: 50,
      usedTokens: 100000,
      windowSize: 200000,
      peakPct: 60,
      compactions: 0,
      model: null,
      toolCalls: 3,
    },
    transcriptPath: null,
    gitStatus,
  });
}
const section = (md: string, title: string) => md.slice(md.indexOf(`## ${title}`)).split("\n\n")[0]!;

describe("bd (beads) in real sessions", () => {
  test("258c7280: the last `bd list --status=open` and what was closed after it", () => {
    const t = factsOfExcerpt("bd-list-then-close.jsonl").tracker!;
    expect(t.tool).toBe("bd");
    expect(t.listedBy).toBe("bd list --status=open 2>&1");
    expect(t.items).toHaveLength(13);
    expect(t.items[0]).toBe(
      "○ spotter-obz.1 [● P1] [task] - Filter tmux control mode output by pane_id (blocked by: spotter-obz)",
    );
    expect(t.closedSince).toEqual(["spotter-gqc"]); // the --reason text is not an id
  });
  test("ae4a77f8: `bd ready` then `bd list --status=in_progress` add up; items closed later drop out", () => {
    const t = factsOfExcerpt("bd-ready-in-a-row.jsonl").tracker!;
    expect(t.listedBy).toBe("bd ready; bd list --status=in_progress");
    expect(t.closedSince).toEqual(["spotter-4te.4", "spotter-4te.5", "spotter-4te.6", "spotter-4te"]);
    expect(t.items.map((l) => /spotter-[\w.]+/.exec(l)![0])).toEqual([
      "spotter-vd6",
      "spotter-4ox",
      "spotter-0fc",
      "spotter-4ox.1",
      "spotter-4ox.2",
      "spotter-y5l.4",
      "spotter-y5l.3",
    ]);
  });
  test("rendered as the tracker's items, never as client tasks a resumed session would re-create", () => {
    const facts = factsOfExcerpt("bd-list-then-close.jsonl");
    const md = render(facts);
    const work = section(md, "Remaining work (open tasks)");
    expect(work).toContain("- (no open tasks in the client's task tools: the work was tracked with `bd`)");
    expect(work).toContain("- Open when last listed (`bd list --status=open 2>&1`):\n  - ○ spotter-obz.1 [● P1]");
    expect(work).not.toContain("spotter-gqc:"); // closed after the listing: under Completed tasks, not here
    expect(section(md, "Completed tasks")).toContain("- Closed in `bd` after its last listing: spotter-gqc");
    expect(work).toContain("- List what is open now: `bd list --status=open`");
    // the tasks a resumed session re-creates come from the twin's open tasks: none of the tracker's
    const twin = mergeChain(undefined, {
      taskId: "T",
      sessionId: "s",
      listId: "s",
      links: ["s"],
      facts,
      tasks: [],
      project: "/p",
      writtenAt: "2026-01-01T00:00:00.000Z",
    });
    expect(twin.open_tasks).toEqual([]);
    expect(
      taskListNote(
        twin.open_tasks.map((t) => t.id),
        "recreate",
      ),
    ).toEqual([]);
    expect(section(md, "How to continue")).toContain(
      "- Tasks are kept in `bd`: run `bd list --status=open` to see what is open now (13 left open from the last listing)",
    );
  });
});

describe("other trackers and edge cases (synthetic)", () => {
  const run = (steps: Array<[string, string]>): TrackerState | null =>
    steps.reduce<TrackerState | null>((s, [cmd, out]) => onTrackerCommand(s, cmd, out), null);
  test("gh issue list, then a close", () => {
    const t = run([
      ["gh issue list --state open", "12\tOPEN\tFix login\tbug\t2026-01-01\n14\tOPEN\tAdd export\t\t2026-01-02\n"],
      ["gh issue close 12 --comment done", "✓ Closed issue #12"],
    ])!;
    expect([t.tool, t.listHint, t.items, t.closedSince]).toEqual([
      "gh",
      "gh issue list",
      ["14 OPEN Add export 2026-01-02"],
      ["12"],
    ]);
  });
  test("reading or commenting on one issue does not make gh the task tracker", () => {
    // As in oh-my-posh 223b2708 (bench/corpus): `gh issue view 5992` to read the bug being fixed.
    expect(run([["gh issue view 5992 --comments", "title:\tSome bug\nstate:\tOPEN\n"]])).toBeNull();
    expect(run([["gh issue comment 12 --body fixed", "https://github.com/o/r/issues/12#issuecomment-1"]])).toBeNull();
    expect(run([["gh issue create --title T --body B", "https://github.com/o/r/issues/15"]])?.created).toEqual([
      "15: T",
    ]);
  });
  test("syncing or showing one bead does not make bd the task tracker; listing, creating, updating do", () => {
    // A held-out langlearn-tts session ran only `bd sync` after merging: no bead was worked on.
    expect(run([["bd sync", "Exported 12 issues\n"]])).toBeNull();
    expect(run([["bd prime", "# Beads workflow\n"]])).toBeNull();
    expect(run([["bd show spotter-fum.5", "spotter-fum.5: Fix the parser\nStatus: open\n"]])).toBeNull();
    expect(run([["bd update spotter-fum.5 --status in_progress", "✓ Updated issue: spotter-fum.5\n"]])?.tool).toBe(
      "bd",
    );
    expect(run([["bd ready", "○ spotter-fum.5: Fix the parser\n"]])?.items).toEqual([
      "○ spotter-fum.5: Fix the parser",
    ]);
  });
  test("taskwarrior and todo.txt", () => {
    const task = run([
      [
        "task next",
        "\nID Age Description      Urg\n 1 2d  Write the parser  1.2\n 2 1d  Add tests         0.8\n\n2 tasks\n",
      ],
      ["task 1 done", "Completed task 1."],
      ["task add Ship it", "Created task 3."],
    ])!;
    expect([task.items, task.closedSince, task.createdSince]).toEqual([["2 1d Add tests 0.8"], ["1"], 1]);
    const todo = run([["todo.sh ls", "1 (A) Call Mom\n2 Buy milk\n--\nTODO: 2 of 2 tasks shown"]])!;
    expect([todo.tool, todo.items]).toEqual(["todo.sh", ["1 (A) Call Mom", "2 Buy milk"]]);
  });
  test("beside client tasks the tracker is mentioned as also used, under the tasks", () => {
    const tracker = run([["bd ready", "1. [● P2] [task] x-1: One"]]);
    const lines = trackerLines(tracker, 12, true);
    expect(lines.slice(0, 3)).toEqual([
      "- Also tracked with `bd` (not the client's task tools):",
      "- Open when last listed (`bd ready`):",
      "  - 1. [● P2] [task] x-1: One",
    ]);
    expect(trackerLines(null, 12, false)).toEqual([]);
  });
  test("a tracker used but never listed says so; one that is not a tracker is ignored", () => {
    const t = run([["bd close x-1", "✓ Closed x-1"]])!;
    expect([t.listedBy, t.closedSince]).toEqual([null, ["x-1"]]);
    expect(
      run([
        ["git status", "clean"],
        ["taskset -c 1 make", ""],
      ]),
    ).toBeNull();
  });
  test("across a chain: a session that only closes items trims the previous listing; the twin keeps it", () => {
    const first = emptyFacts();
    first.tracker = run([["bd list --status=open", "○ a-1 [● P2] [task] - One\n○ a-2 [● P2] [task] - Two"]]);
    const second = emptyFacts();
    second.tracker = run([["bd close a-1", "✓ Closed a-1"]]);
    const twin = twinOf(second, "s2", twinOf(first));
    expect(twin.tracker!.items).toEqual(["○ a-2 [● P2] [task] - Two"]);
    expect(parseTwin(JSON.parse(JSON.stringify(twin)))!.tracker).toEqual(twin.tracker);
    expect(parseTwin({ ...twin, tracker: { tool: "rm -rf", items: [1] } })!.tracker).toBeNull();
  });
});

describe("How to continue is written from the summary's content", () => {
  const base = twinOf(emptyFacts());
  test("nothing open: the last request and the agent's report, and to confirm with the user", () => {
    const t: SummaryTwin = {
      ...base,
      goal: "Implement spotter-gqc",
      latest_request: "did you push?",
      decisions: ["Yes, pushed."],
    };
    expect(howToContinue(t, [])).toEqual([
      '- No open task or error: the last request was "did you push?" and the agent reported: "Yes, pushed.". Confirm with the user before starting new work.',
    ]);
  });
  test("an open task, an open error, uncommitted changes: each its own line, in that order of urgency", () => {
    const t: SummaryTwin = {
      ...base,
      open_tasks: [
        { id: "2", subject: "Write tests", status: "pending", list: "L" },
        { id: "3", subject: "Docs", status: "pending", list: "L" },
      ],
      errors: [{ tool: "Bash", target: "mix test", message: "1 failure", key: "run:mix test", session: 0 }],
    };
    expect(howToContinue(t, [" M a.ex"])).toEqual([
      "- `git status` shows 1 uncommitted change: look at them first, they may be unfinished work.",
      "- Still failing: Bash `mix test`. Find out why, fix it and run it again.",
      "- Carry on with the first open task, #2 Write tests (2 open); do not redo completed tasks.",
    ]);
  });
  test("two summaries with different content say different things", () => {
    const a = section(render(factsOfExcerpt("bd-list-then-close.jsonl")), "How to continue");
    const b = section(render(emptyFacts(), [" M x"]), "How to continue");
    expect(a).not.toBe(b);
    expect(b).toContain("uncommitted change");
  });
});

describe("items created after the last listing (spotter 8463c716, bench/corpus)", () => {
  test("`bd create` names its item and title; closing it removes it; the twin keeps it", () => {
    const out = "✓ Created issue: spotter-fum.5\n  Title: load_session_messages drops agent_id field\n  Priority: P3";
    let t = onTrackerCommand(null, "bd ready 2>&1", "1. [● P2] [epic] spotter-g6r: Global commit history\n");
    t = onTrackerCommand(t, 'bd create --title="load_session_messages drops agent_id field" --type=bug', out);
    expect(t!.created).toEqual(["spotter-fum.5: load_session_messages drops agent_id field"]);
    const lines = trackerLines(t, 5, false).join("\n");
    expect(lines).toContain(
      "- Created after that listing (still open):\n  - spotter-fum.5: load_session_messages drops",
    );
    expect(parseTwin({ ...twinOf(emptyFacts()), tracker: t })?.tracker?.created).toEqual(t!.created);
    // How to continue counts the created item among those left open
    expect(howToContinue({ ...twinOf(emptyFacts()), tracker: t }, null).join("\n")).toContain(
      "to see what is open now (2 open: 1 left from the last listing, 1 created since)",
    );
    t = onTrackerCommand(t, "bd close spotter-fum.5", "✓ Closed spotter-fum.5");
    expect(t!.created).toEqual([]);
  });
});
