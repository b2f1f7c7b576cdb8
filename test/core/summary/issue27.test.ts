/**
 * Issue 27, "no claim without evidence": the rules tested on excerpts of real sessions (whole lines,
 * byte for byte, from the benchmark's development half; sources in test/fixtures/README.md, "issue27")
 * and on the exact texts real clients wrote (named per test).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mergeChain } from "../../../src/core/summary/chain.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { failureKey } from "../../../src/core/summary/errors.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { isMeaningfulCommand } from "../../../src/core/summary/goal.ts";
import { summaryIntent } from "../../../src/core/summary/mid-story.ts";
import { howToContinue } from "../../../src/core/summary/next-step.ts";
import { readUserLine } from "../../../src/core/summary/requests.ts";
import { settleErrors } from "../../../src/core/summary/still-failing.ts";
import { parseTwin } from "../../../src/core/summary/twin.ts";
import { clientReading } from "../../../src/io/session/usage-source.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { latestUsage } from "../../../src/io/transcript/tail.ts";
import { renderSession } from "../../helpers/summary.ts";
import { agent, call, factsOf, partOf, twinOf, user } from "./lines.ts";

const DIR = join(import.meta.dir, "..", "..", "fixtures", "transcripts", "issue27");

/** The facts of a fixture, line numbers as the finalize reader gives them. */
function read(...names: string[]): Facts {
  const f = emptyFacts();
  for (const name of names) streamEntries(join(DIR, name), (e, n) => addEntry(f, e, n));
  return f;
}
function render(f: Facts, gitStatus: string[] | null = null, headless = false): string {
  return renderSession(f, {
    team: null,
    generatedAt: "2026-01-01T00:00:00.000Z",
    usage: {
      usedPct: 50,
      usedTokens: 100000,
      windowSize: 200000,
      peakPct: 50,
      compactions: 0,
      model: null,
      toolCalls: 3,
    },
    transcriptPath: null,
    gitStatus,
    headless,
  });
}

describe("a failure is shown as failing only with evidence that it still fails", () => {
  test("a commit refused by its hook at the very end, the agent asking what to do: still failing, with its lines", () => {
    const f = read("commit-refused.jsonl"); // context-evaluator dbaea254, lines 92-131
    const t = twinOf(f);
    expect(t.errors).toHaveLength(1);
    expect(t.errors[0]!.target).toStartWith('git commit -m "$(cat <<');
    expect(t.errors[0]!.evidence).toEqual([15, 28]); // the call (line 106) and its result (line 119)
    expect(howToContinue(t, null)[0]).toStartWith("- Still failing: Bash `git commit");
    // The work is not saved: said under "Remaining work" as well.
    expect(render(read("commit-refused.jsonl"))).toContain(
      "- Open: the changes are not committed: the last `git commit` failed (see Unresolved errors)",
    );
  });

  test("Codex exec_command: a grep whose pattern holds `\\|` is a lookup; `go test ./...` after only reads stays failing (git-sync 019ed470)", () => {
    const f = read("codex-grep.jsonl");
    // Line 45-46: `go test ./...` fails; afterwards only reads, a scratch program (`go run`) and the review.
    expect(twinOf(f).errors.map((e) => [e.target, e.evidence])).toEqual([["go test ./...", [45, 46]]]);
    expect(isMeaningfulCommand('grep -R "exec sh -c \\"$remote\\"\\|dest=\\"$1\\"" -n --exclude-dir=.git .')).toBe(
      false,
    );
  });

  test("lookups that name a missing path (`rg`, `sed -n`, `git -C dir log`) leave nothing open", () => {
    for (const command of [
      "rg -n ParseURL internal/missing",
      "sed -n '1,200p' src/api/missing.py",
      "git -C /Users/cedricteyton/Code/agents-md-evaluator log --oneline -5", // context-evaluator 38fb3e7a line 42
      "git -C /Users/cedricteyton/Code/agents-md-evaluator diff -- frontend/src/hooks/useEvaluationApi.ts",
    ]) {
      expect(isMeaningfulCommand(command)).toBe(false);
      expect(failureKey("Bash", { command }, "Exit code 2\nNo such file or directory")).toBeNull();
    }
    expect(read("git-c-reads.jsonl").lastStep).toBeNull(); // only reads: no meaningful step
  });

  test("a refused or malformed call is no open work: AskUserQuestion validation, a tool the session lacks", () => {
    // The texts real clients answered with: 2.1.332 recorded offline (docs/plan-tools.md); the validation error's shape.
    const outputs: Array<[string, string]> = [
      [
        "AskUserQuestion",
        "<tool_use_error>InputValidationError: AskUserQuestion failed due to the following issues:\nThe required parameter `questions[0].question` is missing</tool_use_error>",
      ],
      [
        "TaskCreate",
        "<tool_use_error>Error: No such tool available: TaskCreate. TaskCreate is disabled for this session, in subagents as well as here.</tool_use_error>",
      ],
      [
        "Task",
        "<tool_use_error>Error: No such tool available: Task. Task is not available inside subagents.</tool_use_error>",
      ],
      ['Task<parameter name="prompt">', "<tool_use_error>Error: No such tool available: Task</tool_use_error>"],
    ];
    for (const [tool, out] of outputs) expect(failureKey(tool, { description: "x" }, out)).toBeNull();
    const f = factsOf(outputs.map(([tool, out]) => call(tool, { description: "x" }, out, true)));
    const md = render(f);
    expect(md).toContain("## Unresolved errors\n- (none)");
    expect(md).not.toContain("&lt;parameter");
  });

  test("`git -C` refused by a wrapper, then done another way: not open (the same program succeeded later)", () => {
    const f = factsOf([
      user("push it"),
      call(
        "Bash",
        { command: "git -C /Users/alex/workspace/cli/.worktrees/2 push" },
        "Exit code 1\ngit -C is not allowed",
        true,
      ),
      call(
        "Bash",
        { command: "cd /Users/alex/workspace/cli/.worktrees/2 && git push origin HEAD" },
        "Everything up-to-date",
      ),
    ]);
    expect(twinOf(f).errors).toEqual([]);
    expect(twinOf(f).errors_history?.count).toBe(1);
  });

  test("a lint failure fixed by the next edit of the same file: not open", () => {
    const f = factsOf([
      user("fix the lint"),
      call("Bash", { command: "npx eslint src/a.ts" }, "Exit code 1\nsrc/a.ts 3:1 error no-unused-vars", true),
      call("Edit", { file_path: "src/a.ts", old_string: "x", new_string: "y" }),
    ]);
    expect(twinOf(f).errors).toEqual([]);
  });

  test("a failure long before the end is history; the agent reporting the work done ends a late one", () => {
    const early = factsOf([
      user("go"),
      call("Bash", { command: "make deploy" }, "Exit code 2\nno rule", true),
      ...["a", "b", "c", "d", "e"].map((x) => call("Write", { file_path: `/p/${x}.ts` })),
    ]);
    expect(twinOf(early).errors).toEqual([]);
    const md = render(early);
    expect(md).toContain("- 1 failure along the way, all followed by a success or reported done");
    expect(md).not.toContain("Still failing");
    const reported = factsOf([
      user("go"),
      call("Bash", { command: "make deploy" }, "Exit code 2\nno rule", true),
      agent("Deployed by hand instead: the site is updated and works."),
    ]);
    expect(twinOf(reported).errors).toEqual([]);
    const asked = factsOf([user("go"), call("Bash", { command: "make deploy" }, "Exit code 2\nno rule", true)]);
    expect(twinOf(asked).errors.map((e) => e.target)).toEqual(["make deploy"]);
    expect(settleErrors(asked).open).toHaveLength(1);
  });

  test("How to continue never asks for a user in a headless leg", () => {
    const f = factsOf([user("write the notes"), call("Write", { file_path: "/p/notes.md" }), agent("Notes written.")]);
    expect(render(f)).toContain("Confirm with the user before starting new work.");
    const md = render(f, null, true);
    expect(md).not.toContain("Confirm with the user");
    expect(md).toContain("Check that the request is met; if it is, say so and stop.");
  });
});

describe("every item keeps the transcript lines it came from (`evidence`)", () => {
  test("goal, latest request, decisions, files, errors, last step: line numbers, kept through the twin", () => {
    const f = factsOf([
      user("write a and b"), // 1
      call("Write", { file_path: "/p/a.ts" }), // 2, 3
      call("Bash", { command: "npm test" }, "Exit code 1\n1 failed", true), // 4, 5
      user("and fix the tests"), // 6
      agent("Looking at the failure."), // 7
    ]);
    const t = twinOf(f);
    expect(t.evidence?.goal).toEqual({ session: 0, lines: [1] });
    expect(t.evidence?.latest_request).toEqual({ session: 0, lines: [6] });
    expect(t.evidence?.decisions).toEqual([{ session: 0, lines: [7] }]);
    expect(t.evidence?.last_step).toEqual({ session: 0, lines: [3] });
    expect(t.files[0]).toMatchObject({ path: "a.ts", evidence: [3] });
    expect(t.errors[0]).toMatchObject({ target: "npm test", evidence: [4, 5] });
    expect(parseTwin(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });
});

describe("only the user's words are requests", () => {
  test("a background task's notice queued as JSON (2.1.4x) is nobody's request", () => {
    // The content the issue quotes from a 2.1.4x session.
    const notice =
      '{"task_id":"b3e1bf6","tool_use_id":"toolu_01","description":"Commit the lazy migration todo","task_type":"local_bash"}';
    expect(readUserLine(notice)).toEqual({ kind: "none" });
    const f = factsOf([
      user("migrate lazily"),
      { type: "queue-operation", operation: "enqueue", content: notice },
      { type: "queue-operation", operation: "dequeue" },
    ]);
    expect([f.goal, f.latestReal, f.userRequests]).toEqual(["migrate lazily", "migrate lazily", 1]);
  });

  test("queued task notifications (queue operations and queued_command attachments) are not requests (git-sync 4f8f5e9b)", () => {
    const f = read("queued-notices.jsonl");
    expect(f.userRequests).toBe(0);
    expect(f.goal).toBeNull();
  });

  test("`/clear` and `/compact` typed into the queue, `<agent-notification>`: none; `/plan <text>` keeps its text", () => {
    expect(readUserLine("/clear")).toEqual({ kind: "none" });
    expect(readUserLine("/compact keep the plan")).toEqual({ kind: "none" });
    expect(readUserLine("<agent-notification>\n<agent-id>a8c2528</agent-id>\n<status>completed</status>")).toEqual({
      kind: "none",
    });
    expect(
      readUserLine(
        "<command-message>plan</command-message>\n<command-name>/plan</command-name>\n<command-args>split the parser</command-args>",
      ),
    ).toEqual({ kind: "request", text: "/plan split the parser" });
  });

  test("a queued prompt counts once delivered: dequeue (codemie 196820da), remove then the agent acting (codemie 624a4a58)", () => {
    const d = read("dequeue.jsonl");
    expect(d.latestReal).toBe("don't produce code, design solution first");
    expect(d.latestLines).toEqual([1, 3]);
    const r = read("remove.jsonl");
    expect(r.latestReal).toBe("no, add conversationId field, but set value from sessionId");
    const never = factsOf([
      user("build it"),
      { type: "queue-operation", operation: "enqueue", content: "also add docs" },
    ]);
    expect(never.latestReal).toBe("build it"); // typed at the very end, never read by the agent
  });

  test("order comes from timestamps: a queue line written at the top but typed last is not the goal", () => {
    const f = factsOf([
      { type: "queue-operation", operation: "enqueue", timestamp: "2026-01-01T12:00:00.000Z", content: "now push it" },
      { type: "queue-operation", operation: "dequeue", timestamp: "2026-01-01T12:00:01.000Z" },
      user("implement the parser", "2026-01-01T10:00:00.000Z"),
    ]);
    expect(f.goal).toBe("implement the parser");
    expect(f.latestReal).toBe("now push it");
  });

  test("a slash command run first is completed by the request that follows it", () => {
    const f = factsOf([
      user(
        "<command-message>code-review</command-message>\n<command-name>/code-review</command-name>\n<command-args>ultra --fix</command-args>",
      ),
      user("the login form drops the session cookie, fix that"),
    ]);
    expect(f.goal).toBe("/code-review ultra --fix, then: the login form drops the session cookie, fix that");
  });
});

describe("sessions that start mid-story", () => {
  test("a plan-mode 'clear context and implement' session: the goal is the plan's title (entire-cli 8c816805)", () => {
    const f = read("plan-start.jsonl");
    expect(f.goal).toBe("Implement the plan: Fix: output_filter not being applied when writing to entire/sessions");
    expect(f.midStory?.kind).toBe("plan");
    expect(twinOf(f).latest_request).toBeNull(); // the plan is the one request, said once
    // The plan names the planning session's transcript (redacted upstream): linked when at hand.
    expect(twinOf(f).continues).toEqual({
      kind: "plan",
      line: 5,
      transcript: "/Users/paul/.REDACTED.jsonl",
      at_hand: false,
    });
    expect(render(f)).toContain(
      "(this session began from a plan made in an earlier session, transcript line 5; the earlier session's transcript (`/Users/paul/.REDACTED.jsonl`) is not at hand)",
    );
    const linked = mergeChain(undefined, { ...partOf(f), previousAtHand: true });
    expect(linked.continues?.at_hand).toBe(true);
    expect(parseTwin(JSON.parse(JSON.stringify(linked)))).toEqual(linked);
  });

  test("a queue line written above the compaction summary but typed later does not take the goal (oh-my-posh 030df228)", () => {
    // 2.1.219 wrote the prompt typed at 05:29 as lines 3-4, above the compaction of 21:09 the day before.
    const f = factsOf([
      {
        type: "queue-operation",
        operation: "enqueue",
        timestamp: "2026-07-29T05:29:50.448Z",
        content: "JSON first, YAML second",
      },
      { type: "queue-operation", operation: "dequeue", timestamp: "2026-07-29T05:29:50.490Z" },
      { type: "system", subtype: "compact_boundary", timestamp: "2026-07-28T21:09:00.349Z" },
      {
        type: "user",
        isCompactSummary: true,
        timestamp: "2026-07-28T21:09:00.341Z",
        message: {
          role: "user",
          content:
            "Summary:\n1. Primary Request and Intent:\n   SVG renderer fixes and a studio.\n\n2. Key Technical Concepts:\n   - Go",
        },
      },
    ]);
    expect(f.midStory?.kind).toBe("compaction");
    expect(f.goal).toBe("(continued) SVG renderer fixes and a studio.");
    expect(f.latestReal).toBe("JSON first, YAML second");
  });

  test("a session that begins with the client's compaction summary: the goal is its stated intent (entire-cli 53ea1606)", () => {
    const f = read("compact-start.jsonl");
    expect(f.midStory?.kind).toBe("compaction");
    expect(f.goal).toStartWith("(continued) ");
    expect(f.goal!.length).toBeGreaterThan(40);
    expect(f.goalLines).toEqual([2]);
    expect(
      summaryIntent(
        "Summary:\n1. Primary Request and Intent:\n   Fix the CWD bugs.\n\n2. Key Technical Concepts:\n   - Go",
      ),
    ).toBe("Fix the CWD bugs.");
  });
});

describe("open work that is not a failure", () => {
  test("a background command still running at the end is open work; its notification closes it (spotter 8463c716)", () => {
    // The excerpts end on the call's result, before the agent's reply: the turn itself is unfinished too.
    const background = (name: string) =>
      (twinOf(read(name)).open_work ?? []).filter((w) => w.text.startsWith("background "));
    expect(background("background-running.jsonl").map((w) => [w.text, w.evidence])).toEqual([
      [
        "background command `mix test test/spotter/services/transcript_renderer_test.exs 2>&1` was still running when the session ended",
        [3],
      ],
    ]);
    expect(background("background-done.jsonl")).toEqual([]);
  });

  test("an unanswered last request and uncommitted changes are said as open work, not errors", () => {
    const f = factsOf([
      user("add the docs"),
      call("Write", { file_path: "/p/a.md" }),
      agent("Done."),
      user("now the changelog"),
    ]);
    const md = render(f, [" M a.md"]);
    expect(md).toContain(
      '- Open work (not a failure): the last request is unanswered: the session ended before the agent replied to it: "now the changelog"',
    );
    expect(md).toContain("- Open work (not a failure): 1 uncommitted change in `git status`");
    expect(md).toContain("- Answer the last request first");
    expect(md).not.toContain("No open task or error");
  });
});

describe("open work that is not a failure, read from the transcript alone", () => {
  test("a session cut off mid-turn: the last request is not finished (context-evaluator 38fb3e7a)", () => {
    const t = twinOf(read("git-c-reads.jsonl")); // "commit this", then reads; the last two calls never returned
    expect(t.open_work?.map((w) => w.text)).toEqual([
      'the last request is unanswered: the session ended mid-turn, its last tool calls never returned: "commit this"',
    ]);
    expect(t.open_work?.[0]?.evidence).toEqual([1, 12, 13]);
  });

  test("files changed after the session's last commit; a plan turned down and never approved", () => {
    const f = factsOf([
      user("ship it"), // 1
      call("Edit", { file_path: "/p/a.ts", old_string: "a", new_string: "b" }), // 2, 3
      call("Bash", { command: 'git add -A && git commit -m "first"' }), // 4, 5
      call("Edit", { file_path: "/p/b.ts", old_string: "a", new_string: "b" }), // 6, 7
      call(
        "ExitPlanMode",
        { plan: "# Add unit tests\n1. a" },
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nwe don't need the auto strategy test",
        true,
      ), // 8, 9
      agent("Understood, dropping it."), // 10
    ]);
    expect(twinOf(f).open_work?.map((w) => [w.text, w.evidence])).toEqual([
      ['the plan "Add unit tests" was rejected by the user and no plan was approved after it', [9]],
      ["1 file changed after the session's last commit and not committed since: `/p/b.ts`", [5, 7]],
    ]);
  });
});

describe("a plan turned down gives way to what the user wanted instead (held-out finding, round seven)", () => {
  const REJECTED =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n";
  const planText = (t: ReturnType<typeof twinOf>) => t.open_work?.filter((w) => w.text.includes("was rejected"));

  test("its feedback acted on: the agent edits files and commits after it, so the plan is not open", () => {
    // The shape of a held-out session: "Fix all issues in the suggested order" as the rejection's feedback.
    const f = factsOf([
      user("review the startup code for severe issues"), // 1
      call("ExitPlanMode", { plan: "# Code Review\n1. F1" }, `${REJECTED}Fix all issues in the suggested order`, true), // 2, 3
      call("Edit", { file_path: "/p/a.go", old_string: "a", new_string: "b" }), // 4, 5
      call("Bash", { command: 'git commit -am "fix F1"' }), // 6, 7
      agent("Fixed F1 and committed."), // 8
    ]);
    expect(planText(twinOf(f))).toEqual([]);
  });

  test("only the plan file rewritten (plan mode goes on): still open; a later typed request ends it", () => {
    const rows = [
      user("plan the tests"), // 1
      call("ExitPlanMode", { plan: "# Add unit tests\n1. a" }, `${REJECTED}drop the auto strategy test`, true), // 2, 3
      call("Write", { file_path: "/home/u/.claude/plans/tests.md", content: "# Add unit tests" }), // 4, 5
    ];
    expect(planText(twinOf(factsOf(rows)))?.map((w) => w.evidence)).toEqual([[3]]);
    expect(planText(twinOf(factsOf([...rows, user("forget the tests, fix the build instead")])))).toEqual([]);
  });
});

describe("Codex rollouts: the window and the context of each turn", () => {
  test("the window is the turn's model_context_window; the context is last_token_usage (git-sync 019df213)", () => {
    const f = read("codex-window.jsonl");
    expect(f.windowSize).toBe(258_400);
    expect(f.latestTokens).toBe(13_869); // line 31: last_token_usage 13,869; total_token_usage 26,654
    expect(f.model).toBe("gpt-5.4");
  });
});

describe("Codex rollouts in ctx monitor and ctx status (the transcript reading)", () => {
  test("a real 0.14x rollout: the window of the turn and last_token_usage, never the cumulative total (git-sync 019df213)", () => {
    const u = latestUsage(join(DIR, "codex-window.jsonl"), 1 << 20);
    expect(u).toMatchObject({ usedTokens: 13_869, windowSize: 258_400, model: "gpt-5.4", agent: "codex" });
    const r = clientReading({ ...u!, windowSize: u!.windowSize!, agent: "codex" });
    expect([r.windowSize, r.windowSource, r.usedTokens]).toEqual([258_400, "transcript", 13_869]);
  });
});

describe("a short yes that answers the agent's question is a request", () => {
  test('"yes please" after "Want me to make the change?" (git-sync 0dd6955a): the latest request, with the proposal', () => {
    const f = factsOf([
      user("is the hint misleading?"),
      agent("I'd drop the suffix from 881 and let the wrapped error speak for itself. Want me to make the change?"),
      user("yes please"),
    ]);
    expect(f.latestReal).toBe("yes please");
    expect(f.latestAnswers).toContain("drop the suffix");
    // ctx's own "continue" in a fresh session (no question before it) stays nobody's request.
    expect(factsOf([user("fix it"), agent("Done."), user("continue")]).latestReal).toBe("fix it");
  });
});
