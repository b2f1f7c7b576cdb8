/**
 * How the summary reads the user's side of a transcript: queued prompts, slash commands with their
 * arguments, `!` commands, interrupts, rejected calls and plans, short answers, moves and deletions.
 * `spotter-user-lines.jsonl` holds whole lines of a real Claude Code 2.1.39 session
 * (github.com/marot/spotter, test/fixtures/transcripts/258c7280-….jsonl and ae4a77f8-….jsonl at
 * commit 8cc42b0bd39d04e71e509d7d58e6782ab435329f, MIT; see test/fixtures/README.md).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { fileMoves } from "../../../src/core/summary/moves.ts";
import { queuedPrompt, readUserLine, rejection } from "../../../src/core/summary/requests.ts";
import { isSubagentRun } from "../../../src/core/summary/subagents.ts";
import { parseTwin } from "../../../src/core/summary/twin.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { renderSession } from "../../helpers/summary.ts";
import { twinOf } from "./lines.ts";

const SPOTTER = join(import.meta.dir, "..", "..", "fixtures", "transcripts", "spotter-user-lines.jsonl");

function factsOf(entries: Array<Record<string, unknown>>): Facts {
  const f = emptyFacts();
  for (const e of entries) addEntry(f, e);
  return f;
}
function render(f: Facts): string {
  return renderSession(f, {
    team: null,
    generatedAt: "2026-01-01T00:00:00.000Z",
    usage: {
      usedPct: 80,
      usedTokens: 160000,
      windowSize: 200000,
      peakPct: 80,
      compactions: 0,
      model: null,
      toolCalls: 3,
    },
    transcriptPath: null,
    gitStatus: null,
  });
}
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: "user",
  message: { role: "user", content },
  ...extra,
});
const agent = (text: string) => ({
  type: "assistant",
  message: { id: `m-${text}`, content: [{ type: "text", text }] },
});
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "assistant",
  message: { id: `m_${id}`, content: [{ type: "tool_use", id, name, input }] },
});
const result = (id: string, content: string, isError = false, cwd = "/p") => ({
  type: "user",
  cwd,
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
});

describe("a real 2.1.39 session's user lines (spotter)", () => {
  const f = emptyFacts();
  streamEntries(SPOTTER, (e) => addEntry(f, e));

  test("queued prompts are requests, task notifications and /compact are not", () => {
    // typed: "Implement spotter-gqc", "did you push?", "continue implementation" (the other session);
    // queued only as queue-operation lines: "check again", "new beads for the epic were added. tackle them"
    expect(f.userRequests).toBe(5);
    expect(f.goal).toBe("Implement spotter-gqc");
    expect(f.latestReal).toBe("continue implementation");
  });

  test("Esc at a tool call is an interrupt, not an error", () => {
    expect(f.interrupts).toBe(1);
    expect(f.stoppedAt).toBe("TaskOutput");
    expect(f.errors.total).toBe(0);
    expect(f.unresolved.size).toBe(0);
    expect(f.rejections.total).toBe(0);
  });

  test("the summary says so", () => {
    const text = render(f);
    expect(text).toContain("- The user interrupted the agent once (last at `TaskOutput`)");
    expect(text).not.toContain("## Unresolved errors\n- TaskOutput");
  });
});

describe("queued prompts", () => {
  test("an enqueue then the newer client's attachment of the same prompt count once", () => {
    const f = factsOf([
      user("fix the parser"),
      { type: "queue-operation", operation: "enqueue", content: "and add tests, copy some jsonl into testdata" },
      { type: "queue-operation", operation: "dequeue" },
      {
        type: "attachment",
        attachment: {
          type: "queued_command",
          prompt: "and add tests, copy some jsonl into testdata",
          commandMode: "prompt",
          origin: { kind: "human" },
        },
      },
    ]);
    expect(f.userRequests).toBe(2);
    expect(f.latestReal).toBe("and add tests, copy some jsonl into testdata");
  });

  test("a queued prompt the client later sends as a user line counts once", () => {
    const f = factsOf([
      { type: "queue-operation", operation: "enqueue", content: "then run the linter" },
      user("then run the linter"),
    ]);
    expect(f.userRequests).toBe(1);
  });

  test("queued task notifications are not prompts", () => {
    const note = "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>";
    expect(queuedPrompt({ type: "queue-operation", operation: "enqueue", content: note })).toBeNull();
    expect(
      queuedPrompt({
        type: "attachment",
        attachment: { type: "queued_command", prompt: note, commandMode: "task-notification" },
      }),
    ).toBeNull();
    expect(queuedPrompt({ type: "queue-operation", operation: "remove", content: "x" })).toBeNull();
  });
  // Client 2.1.232 (teslamint/entirecontext, MIT: bench/corpus/entirecontext/f70db4c5-….jsonl, lines 737 and 816):
  // a teammate's reply arrives as a user line; the user's latest request was the patch release before it.
  test("a teammate's message (agent teams) is no request", () => {
    const preamble = ["Another", "Claude", "session sent a message:"].join(" ");
    const verdicts = `${preamble}\n<teammate-message teammate_id="retro-facilitator" color="yellow" summary="Round 2 verdicts for T5 and T6">\n## Round 2 Evaluation — T5 and T6\n</teammate-message>`;
    const idle = `${preamble}\n<teammate-message teammate_id="retro-facilitator-2" color="purple">\n{"type":"idle_notification"}\n</teammate-message>`;
    expect(readUserLine(verdicts).kind).toBe("none");
    expect(readUserLine(idle).kind).toBe("none");
    expect(readUserLine('<teammate-message teammate_id="a">done</teammate-message>').kind).toBe("none");
    expect(queuedPrompt({ type: "queue-operation", operation: "enqueue", content: verdicts })).toBeNull();
    // the same reply queued while the agent worked (line 676), and its attachment (line 688, origin "peer")
    const queued = '<agent-message from="retro-facilitator">\n## Retrospective Interview Evaluation\n';
    expect(queuedPrompt({ type: "queue-operation", operation: "enqueue", content: queued })).toBeNull();
    const attachment = { type: "queued_command", prompt: queued, commandMode: "prompt", origin: { kind: "peer" } };
    expect(queuedPrompt({ type: "attachment", attachment })).toBeNull();
    // the user's own words that merely mention the tag further on are still a request
    expect(readUserLine("Why did the <teammate-message> from retro-facilitator say T5 was accepted?").kind).toBe(
      "request",
    );
  });
});

describe("slash commands and ! commands", () => {
  test("a custom slash command keeps its arguments", () => {
    const line =
      "<command-message>create-beads is running…</command-message>\n<command-name>/create-beads</command-name>\n" +
      "<command-args>websearch to learn how to set up credo, dialyzer</command-args>";
    expect(readUserLine(line)).toEqual({
      kind: "request",
      text: "/create-beads websearch to learn how to set up credo, dialyzer",
    });
    const f = factsOf([user(line), user([{ type: "text", text: "Create the beads for the plan." }], { isMeta: true })]);
    expect(f.goal).toBe("/create-beads websearch to learn how to set up credo, dialyzer");
  });

  test("a slash command without arguments is completed by the request that follows it", () => {
    const f = factsOf([
      user("<command-message>create-tech-spec</command-message>\n<command-name>/create-tech-spec</command-name>"),
      agent("What should the spec cover?"),
      user("a metrics plugin for codex, like the claude and gemini ones"),
      agent("Spec written. Would you like us to: - **[d] Done** - proceed to implementation - **[exit]** End"),
      user("d"),
    ]);
    expect(f.goal).toBe("/create-tech-spec, then: a metrics plugin for codex, like the claude and gemini ones");
    expect(f.latestReal).toBe("d");
    expect(f.latestAnswers).toContain("**[d] Done** - proceed to implementation");
  });

  test("built-in commands are not requests", () => {
    expect(readUserLine("<command-name>/model</command-name>\n<command-args>opus</command-args>").kind).toBe("none");
    expect(readUserLine("<command-name>/clear</command-name>").kind).toBe("none");
  });

  test("a ! command is the user running it, and its output is no request", () => {
    const f = factsOf([
      user("port the module"),
      user("<bash-input>go mod init github.com/x/y</bash-input>"),
      user("<bash-stdout>go: creating new go.mod: module github.com/x/y</bash-stdout><bash-stderr></bash-stderr>"),
    ]);
    expect(f.latestReal).toBe("port the module");
    expect(f.userRequests).toBe(1);
    expect(render(f)).toContain("- The user ran (with `!`): `go mod init github.com/x/y`");
  });
});

describe("rejections", () => {
  test("a rejected plan is marked in the decisions, and the feedback is the latest request", () => {
    const f = factsOf([
      user("speed up the import"),
      agent("Plan: rewrite the importer in Rust."),
      use("t1", "ExitPlanMode", { plan: "Rewrite the importer in Rust" }),
      result(
        "t1",
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nno, add tests first and keep it in TypeScript",
        true,
      ),
    ]);
    expect(f.errors.total).toBe(0);
    expect(f.latestReal).toBe("no, add tests first and keep it in TypeScript");
    expect(f.agentTexts.items).toEqual([
      "(rejected by the user) Plan: rewrite the importer in Rust.",
      "(rejected by the user) plan: Rewrite the importer in Rust",
    ]);
    expect(render(f)).toContain(
      '- The user turned down: the plan, saying "no, add tests first and keep it in TypeScript"',
    );
  });

  test("the client's rejection texts", () => {
    expect(rejection("Exit code 1\nboom")).toBeNull();
    expect(
      rejection(
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
      ),
    ).toEqual({ feedback: "" });
    expect(rejection("The agent proposed a plan that was rejected by the user. …\n\nRejected plan:\nx")).toEqual({
      feedback: "",
    });
  });
});

describe("a short latest request", () => {
  test("is shown with the agent message it answers", () => {
    const f = factsOf([
      user("add caching to the API client"),
      agent("Two ways: 1) an in-memory LRU, 2) Redis with a TTL. Which do you prefer?"),
      user("lets do 2"),
    ]);
    expect(f.latestAnswers).toBe("Two ways: 1) an in-memory LRU, 2) Redis with a TTL. Which do you prefer?");
    const text = render(f);
    expect(text).toContain(
      '## Latest request\n> lets do 2\n(answering the agent\'s message: "Two ways: 1) an in-memory LRU, 2) Redis with a TTL. Which do you prefer?")',
    );
  });

  test("a short reply to the agent's answer to the user's question carries that question too (entire-graph 019f8c04)", () => {
    // Lines 491-501: "Did you push them?", the agent: "No. … uncommitted and unpushed.", the user: "Well then, you know what to do".
    const f = factsOf([
      user("Fix them all"),
      agent("All fixed."),
      user("Did you push them?"),
      agent("No. The fixes are only in the local working tree, uncommitted and unpushed."),
      user("Well then, you know what to do"),
    ]);
    expect(f.latestFollows).toBe("Did you push them?");
    const twin = twinOf(f);
    expect(twin.latest_follows).toBe("Did you push them?");
    expect(parseTwin(JSON.parse(JSON.stringify(twin)))?.latest_follows).toBe("Did you push them?");
    expect(render(f)).toContain(
      '> Well then, you know what to do\n(answering the agent\'s message: "No. The fixes are only in the local working tree, uncommitted and unpushed.", its reply to the user\'s "Did you push them?")',
    );
    // A request that was no question ("add caching") is not carried.
    expect(factsOf([user("add caching"), agent("Which store?"), user("redis")]).latestFollows).toBeNull();
  });

  test("a long pasted request keeps its start and its ask at the end (session-bridge 019d6a5d)", () => {
    // Line 175: a pasted "# Review findings" block of about 3,000 characters ending "My request for Codex: Commit the changes".
    const findings = Array.from({ length: 40 }, (_, i) => `Finding ${i}: the out/ folder keeps stale test artifacts.`);
    const f = factsOf([
      user("review the changes"),
      agent("Four findings."),
      user(`# Review findings:\n${findings.join("\n")}\nMy request for Codex: Commit the changes`),
    ]);
    expect(f.latestReal?.length).toBe(600);
    expect(f.latestReal).toStartWith("# Review findings: Finding 0:");
    expect(f.latestReal).toEndWith("My request for Codex: Commit the changes");
    expect(f.latestReal).toContain(" … ");
  });

  test("a long request stands on its own", () => {
    const f = factsOf([
      user("start"),
      agent("Done with the first part."),
      user("now move the parser into its own module and add a test for every error path"),
    ]);
    expect(f.latestAnswers).toBeNull();
  });
});

describe("moves and deletions", () => {
  test("fileMoves reads mv, git mv, rm and git rm, with cd", () => {
    expect(fileMoves("git mv src/a.ts src/b.ts && rm -f tmp/x.log", "/p")).toEqual({
      moved: [["/p/src/a.ts", "/p/src/b.ts"]],
      deleted: ["/p/tmp/x.log"],
    });
    expect(fileMoves("cd lib && mv a.ex b.ex old/", "/p")).toEqual({
      moved: [
        ["/p/lib/a.ex", "/p/lib/old/a.ex"],
        ["/p/lib/b.ex", "/p/lib/old/b.ex"],
      ],
      deleted: [],
    });
    expect(fileMoves("git rm --cached secrets.env", "/p")).toEqual({ moved: [], deleted: [] });
    expect(fileMoves("rm -rf build/* | tee log", "/p")).toEqual({ moved: [], deleted: [] });
    expect(fileMoves("rm build/*", "/p")).toEqual({ moved: [], deleted: [] });
    expect(fileMoves("mv 'my file.txt' \"new name.txt\"", "/p").moved).toEqual([["/p/my file.txt", "/p/new name.txt"]]);
  });

  test("a written file that is moved shows under its new path, a deleted one as deleted", () => {
    const f = factsOf([
      user("reorganise"),
      use("w1", "Write", { file_path: "/p/src/old.ts", content: "x" }),
      result("w1", "File created"),
      use("b1", "Bash", { command: "git mv src/old.ts src/new.ts" }),
      result("b1", ""),
      use("w2", "Write", { file_path: "/p/notes.md", content: "x" }),
      result("w2", "File created"),
      use("b2", "Bash", { command: "rm notes.md" }),
      result("b2", ""),
    ]);
    expect([...f.files.keys()]).toEqual(["/p/src/new.ts", "/p/notes.md"]);
    const text = renderSession(
      f,
      {
        team: null,
        generatedAt: "2026-01-01T00:00:00.000Z",
        usage: { usedPct: 1, usedTokens: 1, windowSize: 200000, peakPct: 1, compactions: 0, model: null, toolCalls: 4 },
        transcriptPath: null,
        gitStatus: null,
      },
      { taskId: "T", sessionId: "s", links: ["s"], project: "/p" },
    );
    expect(text).toContain("- `notes.md` (Write, deleted; this session)");
    expect(text).toContain("- `src/new.ts` (moved from `src/old.ts`, Write; this session)");
    expect(text).not.toContain("`src/old.ts` (");
  });
});

test("the compaction agent's transcript is no subagent run", () => {
  expect(isSubagentRun("agent-a881341.jsonl")).toBe(true);
  expect(isSubagentRun("agent-acompact-fffbd0.jsonl")).toBe(false);
  expect(isSubagentRun("agent-a1.meta.json")).toBe(false);
});

describe("IDE context before the user's words", () => {
  test("an opened file or a selection the IDE extension adds is not part of the request", () => {
    // The shape 2.1.112 writes from VS Code (an orpheus session of bench/corpus); the client strips these
    // blocks itself when it shows the message.
    const opened =
      "<ide_opened_file>The user opened the file /repo/ci.yml in the IDE. This may or may not be related to the current task.</ide_opened_file>\nLook through recent github action runs and fix errors";
    expect(readUserLine(opened)).toEqual({
      kind: "request",
      text: "Look through recent github action runs and fix errors",
    });
    const selected = [
      { type: "text", text: '<ide_selection path="a.ts">The user selected the lines 1 to 3 from a.ts</ide_selection>' },
      { type: "text", text: "rename this function" },
    ];
    expect(readUserLine(selected)).toEqual({ kind: "request", text: "rename this function" });
    // Only the IDE's block goes: the user's own text about a tag stays.
    expect(readUserLine("why does <ide_opened_file> show up in my prompt?")).toEqual({
      kind: "request",
      text: "why does <ide_opened_file> show up in my prompt?",
    });
  });
});
