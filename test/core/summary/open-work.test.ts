/**
 * Open work that is no failure, said as such (issue 27, "Open work that isn't a failure"): a last
 * request the session ended before finishing, read from how the turn ended. The lines are shaped
 * like the real clients write them: Claude Code's tool_use / tool_result / interrupt lines, Codex
 * rollouts' `task_started`, `task_complete`, `turn_aborted` events (docs/track-finalize.md).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { howToContinue } from "../../../src/core/summary/next-step.ts";
import { openWork } from "../../../src/core/summary/open-work.ts";
import { leftIn, remainsIn } from "../../../src/core/summary/remaining.ts";
import { mergedTasks } from "../../../src/core/summary/tasks.ts";
import { mergeChain } from "../../../src/core/summary/chain.ts";
import { parseTwin } from "../../../src/core/summary/twin.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { agent, call, factsOf, partOf, twinOf, user } from "./lines.ts";

const texts = (f: Facts) => openWork(f).map((w) => [w.text, w.evidence]);

/** Codex rollout lines (0.14x): the user's message, a shell call and its output, turn events. */
const at = "2026-06-17T07:17:04.815Z";
const cx = {
  started: () => ({
    timestamp: at,
    type: "event_msg",
    payload: { type: "task_started", turn_id: "t1", model_context_window: 258400 },
  }),
  complete: (last: string) => ({
    timestamp: at,
    type: "event_msg",
    payload: { type: "task_complete", turn_id: "t1", last_agent_message: last },
  }),
  aborted: (reason: string) => ({ timestamp: at, type: "event_msg", payload: { type: "turn_aborted", reason } }),
  user: (text: string) => ({
    timestamp: at,
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
  }),
  say: (text: string, phase = "final_answer") => ({
    timestamp: at,
    type: "response_item",
    payload: { type: "message", role: "assistant", phase, content: [{ type: "output_text", text }] },
  }),
  exec: (id: string, cmd: string, code = 0) => [
    {
      timestamp: at,
      type: "response_item",
      payload: { type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd }), call_id: id },
    },
    {
      timestamp: at,
      type: "response_item",
      payload: {
        type: "function_call_output",
        call_id: id,
        output: `Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code ${code}\nOutput:\nok\n`,
      },
    },
  ],
};

describe("Claude Code: a last request the session ended before finishing", () => {
  test("a turn that ends on a tool result, all calls returned, no reply after: not finished, with its lines", () => {
    const f = factsOf([
      user("rename the flag everywhere"), // 1
      agent("I'll find every use first."), // 2
      call("Grep", { pattern: "oldFlag" }), // 3, 4
      call("Edit", { file_path: "/p/a.ts", old_string: "oldFlag", new_string: "newFlag" }), // 5, 6
    ]);
    expect(texts(f)).toEqual([
      [
        'the last request is unanswered: the session ended mid-turn, after the agent\'s last tool calls and before its reply: "rename the flag everywhere"',
        [1, 6],
      ],
    ]);
  });

  test("the agent's reply after its last call closes the turn: nothing open", () => {
    const f = factsOf([
      user("rename the flag everywhere"),
      call("Edit", { file_path: "/p/a.ts", old_string: "oldFlag", new_string: "newFlag" }),
      agent("Renamed in a.ts, the only use."),
    ]);
    expect(openWork(f)).toEqual([]);
  });

  test("the user's interrupt after the agent's last call (Esc at a tool call): interrupted, and How to continue says so", () => {
    const f = factsOf([
      user("migrate the tests to vitest"), // 1
      agent("Starting with the config."), // 2
      call(
        "Bash",
        { command: "npm i -D vitest" },
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
        true,
      ), // 3, 4
      user("[Request interrupted by user for tool use]"), // 5
    ]);
    expect(texts(f)).toEqual([
      [
        'the last request is unanswered: the user interrupted the agent at work on it and the session ended there: "migrate the tests to vitest"',
        [1, 5],
      ],
    ]);
    const twin = twinOf(f);
    expect(howToContinue(twin, null)).toContain(
      "- The user stopped the agent during the last request: ask whether to carry on with it before running its last steps again.",
    );
    expect(howToContinue(twin, null, true)).toContain(
      "- The last request was interrupted: check what its last steps did, then finish it.",
    );
  });

  test("an interrupt followed by a new request that the agent answered: nothing open", () => {
    const f = factsOf([
      user("migrate the tests to vitest"),
      call("Bash", { command: "npm i -D vitest" }),
      user("[Request interrupted by user]"),
      user("no, keep jest"),
      agent("Keeping jest; nothing changed."),
    ]);
    expect(openWork(f)).toEqual([]);
  });

  test("a subagent's own calls (sidechain) after the agent's reply do not reopen the turn", () => {
    const side = call("Read", { file_path: "/p/a.ts" }).map((e) => ({ ...e, isSidechain: true }));
    const f = factsOf([user("review a.ts"), agent("Looks fine."), side]);
    expect(openWork(f)).toEqual([]);
  });
});

describe("Codex rollouts: how the last turn ended", () => {
  test("a turn started and never completed, its last call returned: not finished", () => {
    const f = factsOf([
      cx.started(), // 1
      cx.user("fix the flaky sync test"), // 2
      cx.say("Looking at the test first.", "commentary"), // 3
      cx.exec("c1", "go test ./internal/syncer/..."), // 4, 5
    ]);
    expect(texts(f)).toEqual([
      [
        'the last request is unanswered: the session ended mid-turn, after the agent\'s last tool calls and before its reply: "fix the flaky sync test"',
        [2, 5],
      ],
    ]);
  });

  test("task_complete ends the turn, even when its last item was a call: nothing open", () => {
    const f = factsOf([
      cx.started(),
      cx.user("run the tests"),
      cx.say("All pass."),
      cx.exec("c1", "go test ./..."),
      cx.complete("All pass."),
    ]);
    expect(openWork(f)).toEqual([]);
  });

  test("the turn's final answer answers it, though task_complete was never written: nothing open", () => {
    // As agentv 019f03e0 (bench/corpus) ends: calls, then the `final_answer` message, and the
    // checkpoint taken before the client wrote `task_complete`.
    const f = factsOf([
      cx.started(),
      cx.user("use bun run, not a path"),
      cx.say("Updating the docs.", "commentary"),
      cx.exec("c1", "git push"),
      cx.say("Done. The docs use `bun run` now."),
    ]);
    expect(openWork(f)).toEqual([]);
    // A commentary message after the calls is no answer: the turn is still open.
    const mid = factsOf([
      cx.started(),
      cx.user("use bun run"),
      cx.exec("c1", "git push"),
      cx.say("Now the PR.", "commentary"),
      cx.exec("c2", "gh pr view"),
    ]);
    expect(openWork(mid)).toHaveLength(1);
  });

  test("turn_aborted with reason interrupted is the user's interrupt; another reason is not", () => {
    const base = [cx.started(), cx.user("bump the go version"), cx.exec("c1", "go mod edit -go=1.24")];
    expect(texts(factsOf([...base, cx.aborted("interrupted")]))).toEqual([
      [
        'the last request is unanswered: the user interrupted the agent at work on it and the session ended there: "bump the go version"',
        [2, 5],
      ],
    ]);
    const replaced = factsOf([...base, cx.aborted("replaced")]);
    expect(replaced.interrupts).toBe(0);
    expect(openWork(replaced)).toEqual([]);
  });
});

describe("Codex's plan tool (update_plan) holds the session's tasks", () => {
  const plan = (id: string, steps: Array<[string, string]>) => [
    {
      timestamp: at,
      type: "response_item",
      payload: {
        type: "function_call",
        name: "update_plan",
        arguments: JSON.stringify({
          explanation: "Tracking the port",
          plan: steps.map(([step, status]) => ({ step, status })),
        }),
        call_id: id,
      },
    },
    {
      timestamp: at,
      type: "response_item",
      payload: { type: "function_call_output", call_id: id, output: "Plan updated" },
    },
  ];
  test("the newest list wins: its steps not completed are open, with the line of that call", () => {
    const f = factsOf([
      cx.started(), // 1
      cx.user("port the sync command to cobra"), // 2
      plan("p1", [
        ["Read the current entrypoint", "in_progress"],
        ["Move flags to cobra", "pending"],
        ["Add tests for exit codes", "pending"],
      ]), // 3, 4
      cx.exec("c1", "sed -n 1,80p cmd/git-sync/main.go"), // 5, 6
      plan("p2", [
        ["Read the current entrypoint", "completed"],
        ["Move flags to cobra", "in_progress"],
        ["Add tests for exit codes", "pending"],
      ]), // 7, 8
    ]);
    expect(mergedTasks(f, []).map((t) => [t.id, t.subject, t.status, t.evidence])).toEqual([
      ["1", "Read the current entrypoint", "completed", [7]],
      ["2", "Move flags to cobra", "in_progress", [7]],
      ["3", "Add tests for exit codes", "pending", [7]],
    ]);
    expect(f.errors.total).toBe(0);
  });

  test("a plan left behind by an answered turn is history once the user asks something new (session-bridge 019d6cca)", () => {
    // Line 422 wrote three steps and never marked them; the turn's final answer (541) and task_complete
    // (544) came, then a new request (547): the steps are not open work.
    const steps: Array<[string, string]> = [
      ["Inspect the normalization", "in_progress"],
      ["Keep only text turns", "pending"],
    ];
    const answered = [
      cx.started(),
      cx.user("render only text turns"),
      plan("p1", steps),
      cx.say("Done: only text turns render."),
      cx.complete("Done."),
    ];
    expect(mergedTasks(factsOf([...answered, cx.started(), cx.user("use only the time, not the date")]), [])).toEqual(
      [],
    );
    // Still the turn that wrote it, or a turn the user interrupted: the steps stay open.
    expect(mergedTasks(factsOf(answered.slice(0, 3)), []).map((t) => t.status)).toEqual(["in_progress", "pending"]);
    const interrupted = [cx.started(), cx.user("render only text turns"), plan("p1", steps), cx.aborted("interrupted")];
    expect(mergedTasks(factsOf([...interrupted, cx.started(), cx.user("go on")]), []).length).toBe(2);
  });
});

describe("finalize reads a transcript whose last line has no newline", () => {
  test("lastLine: the final complete line is read; a line cut mid-write still is not", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-open-work-"));
    try {
      const path = join(dir, "t.jsonl");
      const lines = [user("add a flag"), agent("Added `--flag`.")].map((e) => JSON.stringify(e));
      writeFileSync(path, lines.join("\n")); // no final newline, as published checkpoint transcripts are
      const seen: number[] = [];
      streamEntries(path, (_e, line) => seen.push(line), { lastLine: true });
      expect(seen).toEqual([1, 2]);
      const live: number[] = [];
      streamEntries(path, (_e, line) => live.push(line));
      expect(live).toEqual([1]);
      writeFileSync(path, `${lines[0]}\n${lines[1]!.slice(0, 30)}`);
      const cut: number[] = [];
      streamEntries(path, (_e, line) => cut.push(line), { lastLine: true });
      expect(cut).toEqual([1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the tracker, the command list and latest_answers keep their lines (twin `evidence`)", () => {
  test("a bd listing and a close after it, each command's call and result, the message a short answer answers", () => {
    const f = factsOf([
      user("work on the spotter-fum epic"), // 1
      call(
        "Bash",
        { command: "bd ready" },
        "○ spotter-fum.5: load_session_messages drops agent_id\n○ spotter-fum.6: docs",
      ), // 2, 3
      call("Bash", { command: "mix test" }, "Exit code 1\n2 failures", true), // 4, 5
      agent("spotter-fum.6 is only docs. Want me to close it?"), // 6
      user("yes please"), // 7
      call("Bash", { command: "bd close spotter-fum.6" }, "✓ Closed spotter-fum.6"), // 8, 9
      agent("Closed."), // 10
    ]);
    const twin = twinOf(f);
    expect(twin.latest_answers).toContain("Want me to close it?");
    expect(twin.tracker?.items).toEqual(["○ spotter-fum.5: load_session_messages drops agent_id"]);
    expect(twin.evidence?.latest_answers).toEqual({ session: 0, lines: [6] });
    expect(twin.evidence?.tracker).toEqual({ session: 0, lines: [3, 9] });
    expect(twin.evidence?.commands).toEqual([
      { session: 0, lines: [2, 3] },
      { session: 0, lines: [4, 5] },
      { session: 0, lines: [8, 9] },
    ]);
    // Read back from disk: kept, checked like the other evidence.
    const back = parseTwin(JSON.parse(JSON.stringify(twin)));
    expect(back?.evidence?.tracker).toEqual({ session: 0, lines: [3, 9] });
    expect(back?.evidence?.latest_answers).toEqual({ session: 0, lines: [6] });
    expect(back?.evidence?.commands?.map((c) => c.lines)).toEqual([
      [2, 3],
      [4, 5],
      [8, 9],
    ]);
  });

  test("a new listing starts the tracker's lines over; no tracker and no short answer: no such evidence", () => {
    const f = factsOf([
      user("tidy the backlog"), // 1
      call("Bash", { command: "bd list --status=open" }, "○ a-1: one"), // 2, 3
      call("Bash", { command: "bd close a-1" }, "✓ Closed a-1"), // 4, 5
      call("Bash", { command: "bd list --status=open" }, "○ a-2: two"), // 6, 7
    ]);
    expect(f.trackerLines).toEqual([7]);
    const plain = factsOf([user("add the docs page"), call("Bash", { command: "ls docs" }), agent("Added.")]);
    const twin = twinOf(plain);
    expect(twin.evidence?.tracker).toBeUndefined();
    expect(twin.evidence?.latest_answers).toBeUndefined();
  });
});

describe("what remains in the agent's own words (its last message)", () => {
  test("a heading or lead-in that names work left undone, and its items; done items left out", () => {
    expect(
      remainsIn(
        "Done with the parser.\n\n## Remaining\n- wire the `--strict` flag\n- [x] tests\n- ~~docs~~\n- update the CHANGELOG\n\nThanks",
      ),
    ).toEqual({
      head: "Remaining",
      items: ["wire the `--strict` flag", "update the CHANGELOG"],
    });
    expect(remainsIn("Fixed the Linux path.\n**Not yet done:** the Windows path (needs a VM)")).toEqual({
      head: "Not yet done",
      items: ["the Windows path (needs a VM)"],
    });
    expect(remainsIn("### Still to do (blocked on review)\n1. merge the PR\n2. tag v2")).toEqual({
      head: "Still to do (blocked on review)",
      items: ["merge the PR", "tag v2"],
    });
  });

  test("a sentence leading into a list of what is left, even under Next Steps (spotter ae4a77f8, line 1473)", () => {
    const text =
      "### Test Results\nAll 297 tests passing.\n\n### Next Steps\nThe remaining tasks are:\n- spotter-4te.4: Enable opentelemetry_ash and trace async enrichment\n- spotter-4te.5: Trace LiveView and TerminalChannel\n- spotter-4te.6: Add OTEL regression tests";
    expect(remainsIn(text)).toEqual({
      head: "The remaining tasks are",
      items: [
        "spotter-4te.4: Enable opentelemetry_ash and trace async enrichment",
        "spotter-4te.5: Trace LiveView and TerminalChannel",
        "spotter-4te.6: Add OTEL regression tests",
      ],
    });
    expect(remainsIn("The remaining tasks are:\n- none")).toBeNull();
  });

  test("suggestions, nothing left, or the word inside another heading: none (entire-cli 847ff7d2, 8c816805)", () => {
    expect(remainsIn("The implementation is complete.\n\n## Next Steps for Debugging\n1. Check the logs")).toBeNull();
    expect(remainsIn("## Follow-ups (optional)\n- cache the lookups")).toBeNull();
    expect(remainsIn("**Remaining:** none, all green.")).toBeNull();
    expect(remainsIn("**Remaining `[:7]` usages** (intentionally left as-is):\n- `git.go:42`")).toBeNull();
    expect(remainsIn("The remaining ~20ms is the `machineid.ProtectedID()` call.")).toBeNull();
  });

  test("open work only when that message answers the newest request; with its line", () => {
    const words = "Ported the command.\n\nRemaining:\n- exit-code tests\n- docs page";
    const f = factsOf([user("port the sync command"), call("Edit", { file_path: "/p/a.go" }), agent(words)]);
    expect(texts(f)).toEqual([
      ["the agent's last message names work still to do (Remaining): exit-code tests; docs page", [4]],
    ]);
    const later = factsOf([user("port the sync command"), agent(words), user("thanks, that's all for today")]);
    expect(openWork(later).map((w) => w.text)).toEqual([
      'the last request is unanswered: the session ended before the agent replied to it: "thanks, that\'s all for today"',
    ]);
  });

  test("Codex: the final answer's list counts like Claude Code's", () => {
    const f = factsOf([
      cx.started(),
      cx.user("split the transport"),
      cx.say("Split into two files.\n\n**Still to do**\n- move the SSH shim test"),
      cx.complete("Split into two files."),
    ]);
    expect(texts(f)).toEqual([
      ["the agent's last message names work still to do (Still to do): move the SSH shim test", [3]],
    ]);
  });
});

describe("files changed after the last commit: `git status` is the truth when known", () => {
  const f = factsOf([
    user("ship it"), // 1
    call("Edit", { file_path: "/p/a.ts", old_string: "a", new_string: "b" }), // 2, 3
    call("Bash", { command: 'git add -A && git commit -m "first"' }), // 4, 5
    call("Edit", { file_path: "/p/src/b.ts", old_string: "a", new_string: "b" }), // 6, 7
    agent("Done."), // 8
  ]);
  const work = (gitStatus?: string[] | null) =>
    (mergeChain(undefined, { ...partOf(f), ...(gitStatus !== undefined ? { gitStatus } : {}) }).open_work ?? []).map(
      (w) => w.text,
    );
  const after = "1 file changed after the session's last commit and not committed since: `/p/src/b.ts`";
  test("a clean tree (committed since): not open; still modified, or in an untracked folder: open", () => {
    expect(work([])).toEqual([]);
    expect(work([" M src/b.ts"])).toEqual([after]);
    expect(work(["?? src/"])).toEqual([after]);
    expect(work(["R  src/old.ts -> src/b.ts"])).toEqual([after]);
  });
  test("no repository, or git status not looked at: the transcript alone says it", () => {
    expect(work(null)).toEqual([after]);
    expect(work()).toEqual([after]);
  });
});

describe("a prompt still queued when the session ended", () => {
  // The queue lines as Claude Code 2.1.5 wrote them (entire-cli deeac353, lines 425 and 430).
  const enqueue = {
    type: "queue-operation",
    operation: "enqueue",
    timestamp: "2026-01-12T20:37:19.298Z",
    sessionId: "deeac353-0765-4439-9056-293619a99172",
    content: "could we have a linting rule?",
  };
  const remove = {
    type: "queue-operation",
    operation: "remove",
    timestamp: "2026-01-12T20:37:46.531Z",
    sessionId: "deeac353-0765-4439-9056-293619a99172",
  };
  const text =
    'a prompt the user typed while the agent worked is unanswered: it was still queued when the session ended: "could we have a linting rule?"';
  test("queued, or taken off the queue with no agent act after it: open work, not the latest request", () => {
    const base = [user("does CLAUDE.md say how to avoid this?"), agent("Let me update it."), enqueue];
    const queued = factsOf(base); // enqueue at 3
    expect(texts(queued)).toEqual([[text, [3]]]);
    expect(queued.latestReal).toBe("does CLAUDE.md say how to avoid this?");
    const removed = factsOf([...base, remove]); // remove at 4
    expect(texts(removed)).toEqual([[text, [4]]]);
  });
  test("delivered (the agent acts after the remove): a request like a typed one, answered", () => {
    const f = factsOf([
      user("does CLAUDE.md say how to avoid this?"),
      enqueue,
      remove,
      agent("Adding a forbidigo rule."),
    ]);
    expect(f.latestReal).toBe("could we have a linting rule?");
    expect(openWork(f)).toEqual([]);
  });
});

describe("background subagents: a fork runs on its own; a notice in the queue ends it", () => {
  // Shaped like Claude Code 2.1.1xx (git-sync 4f8f5e9b): an `Agent` call with `subagent_type: "fork"`
  // and no `run_in_background`, answered "Async agent launched successfully"; its notice queued.
  const fork = (description: string, id: string) =>
    call(
      "Agent",
      { description, subagent_type: "fork", prompt: "Review one angle only." },
      `Async agent launched successfully.\nagentId: ${id} (internal ID - do not mention to user. Use SendMessage with to: '${id}' to continue this agent.)`,
    );
  const notice = (id: string) => ({
    type: "queue-operation",
    operation: "enqueue",
    timestamp: "2026-05-20T10:00:00.000Z",
    sessionId: "s",
    content: `<task-notification>\n<task-id>${id}</task-id>\n<output-file>/tmp/claude-501/tasks/${id}.output</output-file>\n<status>completed</status>\n<summary>Agent "x" completed</summary>\n</task-notification>`,
  });
  test("both forks started, one notice queued: the other is still running, with the line of its launch", () => {
    const f = factsOf([
      user("/simplify the helper transport"), // 1
      fork("Reuse review", "aedbf9eaea46fce56"), // 2, 3
      fork("Altitude review", "aa5b990f3602fd4b1"), // 4, 5
      agent("Both reviews are running; I'll merge their findings."), // 6
      notice("aedbf9eaea46fce56"), // 7
    ]);
    expect(texts(f)).toEqual([['background subagent "Altitude review" was still running when the session ended', [5]]]);
    expect(
      texts(
        factsOf([
          ...[user("go"), fork("Altitude review", "aa5b990f3602fd4b1"), agent("ok")],
          notice("aa5b990f3602fd4b1"),
        ]),
      ),
    ).toEqual([]);
  });
  test("a subagent that ran in the foreground is not background work", () => {
    const f = factsOf([
      user("review it"),
      call("Agent", { description: "Review" }, "The review found nothing."),
      agent("Clean."),
    ]);
    expect(openWork(f)).toEqual([]);
  });
});

describe("sentences of the last message that say work is left", () => {
  test("found; code, the agent's next move and 'nothing left' are not", () => {
    expect(
      leftIn(
        "Wired the flag. The Windows path still needs to be tested on a VM. I haven't run the integration suite yet.\n\n```ts\n// TODO: not implemented yet\n```\nNothing is left to do on the parser.",
      ),
    ).toEqual(["The Windows path still needs to be tested on a VM.", "I haven't run the integration suite yet."]);
    expect(leftIn("Let me read the files I haven't seen yet.")).toEqual([]);
    expect(leftIn('  "conversationId": null      // Not created yet')).toEqual([]);
    expect(leftIn("throw new Error('Not implemented');")).toEqual([]);
  });
  test("open work with the message's line, when no heading names the work", () => {
    const f = factsOf([
      user("add the Windows path"), // 1
      call("Edit", { file_path: "/p/a.go" }), // 2, 3
      agent("Added it. It is not yet tested on Windows."), // 4
    ]);
    expect(texts(f)).toEqual([
      ['the agent\'s last message says work is left: "It is not yet tested on Windows."', [4]],
    ]);
  });
});

describe("the user's answers to AskUserQuestion are requests in the user's own words", () => {
  const ask = { questions: [{ question: "Which storage?", options: [{ label: "SQLite" }, { label: "Files" }] }] };
  test("the newest client's text, an older client's text, and the structured answers", () => {
    const newest = factsOf([
      user("add persistence"),
      call(
        "AskUserQuestion",
        ask,
        'Your questions have been answered: "Which storage?"="SQLite". You can now continue with these answers in mind.',
      ),
      agent("Going with SQLite."),
    ]);
    expect(newest.latestReal).toBe("Which storage? → SQLite");
    expect(newest.latestLines).toEqual([3]);
    const older = factsOf([
      user("add persistence"),
      call(
        "AskUserQuestion",
        ask,
        'User has answered your questions: "Which storage?"="Files", "Keep the cache?"="No". You can now continue with the user\'s answers in mind.',
      ),
    ]);
    expect(older.latestReal).toBe("Which storage? → Files; Keep the cache? → No");
    const f = emptyFacts();
    const id = "toolu_ask";
    addEntry(f, user("add persistence"), 1);
    addEntry(
      f,
      { type: "assistant", message: { content: [{ type: "tool_use", id, name: "AskUserQuestion", input: ask }] } },
      2,
    );
    addEntry(
      f,
      {
        type: "user",
        toolUseResult: { questions: ask.questions, answers: { "Which storage?": "SQLite" } },
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "answered" }] },
      },
      3,
    );
    expect(f.latestReal).toBe("Which storage? → SQLite");
  });
  test("free text, and no answer at all", () => {
    const free = factsOf([
      user("add persistence"),
      call("AskUserQuestion", ask, "The user responded: use postgres, we have it already"),
    ]);
    expect(free.latestReal).toBe("use postgres, we have it already");
    const none = factsOf([
      user("add persistence"),
      call("AskUserQuestion", ask, "The user did not answer the questions."),
    ]);
    expect(none.latestReal).toBe("add persistence");
  });
});

describe("Codex: a call the user declined at the approval prompt", () => {
  const out = (id: string, output: string) => ({
    timestamp: at,
    type: "response_item",
    payload: { type: "function_call_output", call_id: id, output },
  });
  const fc = (id: string, cmd: string) => ({
    timestamp: at,
    type: "response_item",
    payload: { type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd }), call_id: id },
  });
  test("'exec command rejected by user' (the text of 0.169's binary) is neither a failure nor a success", () => {
    const f = factsOf([
      cx.started(),
      cx.user("push the branch"),
      cx.exec("c1", "git push", 1), // fails first
      fc("c2", "git push --force"),
      out("c2", "exec command rejected by user"),
      cx.say("You declined the force push; the branch is not pushed."),
      cx.complete("You declined the force push; the branch is not pushed."),
    ]);
    expect(f.errors.total).toBe(1); // the first push only
    expect(f.succeeded.has("run:git push")).toBe(false);
    expect(f.lastCommitLine).toBe(0);
    expect(f.stoppedAt).toContain("git push --force");
  });
});

describe("Windows sessions: the PowerShell tool, and a subagent woken by SendMessage (starcar, development half)", () => {
  test("a subagent SendMessage resumed in the background is open work until its notice (starcar 548526c8, line 404)", () => {
    const resumed = JSON.stringify({
      success: true,
      message:
        'Agent "a38588f299202d415" had no active task; resumed from transcript in the background with your message. You\'ll be notified when it finishes.',
      resumedAgentId: "a38588f299202d415",
    });
    const send = call(
      "SendMessage",
      { to: "a38588f299202d415", summary: "Fix cycle: review returned REJECT" },
      resumed,
    );
    const f = factsOf([user("land the verdict"), send, agent("The fix cycle is running; a delta re-review follows.")]);
    expect(texts(f)).toEqual([
      ['background subagent "Fix cycle: review returned REJECT" was still running when the session ended', [3]],
    ]);
    const notice =
      "<task-notification><task-id>a38588f299202d415</task-id><status>completed</status></task-notification>";
    expect(openWork(factsOf([user("land the verdict"), send, user(notice), agent("Done.")]))).toEqual([]);
  });

  test("PowerShell runs commands like Bash: its gh issue listing is the tracker, its commands are listed (starcar e92f5a0b)", () => {
    const f = factsOf([
      user("what is open?"),
      call(
        "PowerShell",
        { command: "cd C:\\repo\ngh issue list --state open" },
        "45\tOPEN\tDocument npm ci\t\n44\tOPEN\tCount helper files\t\n",
      ),
      call("PowerShell", { command: "gh issue close 44" }, "✓ Closed issue #44"),
      agent("Closed #44."),
    ]);
    expect(f.tracker?.tool).toBe("gh");
    expect(f.tracker?.items.map((l) => l.split(" ")[0])).toEqual(["45"]);
    expect(f.commands.items.map((c) => c.command)).toEqual([
      "cd C:\\repo gh issue list --state open",
      "gh issue close 44",
    ]);
  });
});

describe("a last request that asked for a version-control step the session never took", () => {
  const bash = (command: string) => call("Bash", { command }, "ok");
  const asked = (f: Facts) => openWork(f).filter((w) => w.text.startsWith("the last request is not finished"));
  test("tij 19512375 (development): asked to commit, push and publish; committed, then left the push to the user", () => {
    const f = factsOf([
      user("check ok. update plan.md and README, then commit,push,publish"), // 1
      bash("git add plan.md README.md && git commit -m 'docs: v0.4.6'"), // 2, 3
      agent("Committed. To push: run `jj git import` and `jj git push -b main`, then tag v0.4.6."), // 4
    ]);
    expect(asked(f).map((w) => [w.text, w.evidence])).toEqual([
      [
        'the last request is not finished: it asked to push, and no `git push` ran after it: "check ok. update plan.md and README, then commit,push,publish"',
        [1],
      ],
    ]);
    expect(howToContinue(twinOf(f), null)).toContain(
      "- Finish the last request: it asked to push, and no `git push` ran after it; check `git status` and `git log` first.",
    );
  });

  test("git-sync 665c2e57: a commit and its push in one long command line is both steps", () => {
    const long = `git add a.go && git commit -m "$(cat <<'EOF'\ngitproto: gofmt\n\n${"x".repeat(200)}\nEOF\n)" && git push`;
    expect(asked(factsOf([user("commit and push please"), bash(long), agent("Committed and pushed.")]))).toEqual([]);
  });

  test("no step asked as a verb, one said not to take, or no version control after the request: nothing", () => {
    const commit = bash("git commit -am wip");
    expect(asked(factsOf([user("remember to resolve any merge issues on your own"), commit, agent("Done.")]))).toEqual(
      [],
    );
    expect(asked(factsOf([user("commit this but don't push yet"), commit, agent("Committed.")]))).toEqual([]);
    expect(asked(factsOf([user("wire up push notifications"), bash("npm test"), agent("Done.")]))).toEqual([]);
    // Asked to push, never touched git at all after it: nothing claimed (the word may be about something else).
    expect(asked(factsOf([user("push it"), bash("npm test"), agent("Tests pass.")]))).toEqual([]);
  });
});

test("git's global flags before the step (`git -c user.name=… commit`) still take it (a try with the real 2.1.332)", () => {
  const f = factsOf([
    user("write the notes, then commit and push please"),
    call(
      "Bash",
      { command: "git add -A && git -c user.name=u -c user.email=u@e.invalid commit -qm 'docs: notes'" },
      "ok",
    ),
    agent("Committed. Run `git push origin main` when you are ready."),
  ]);
  expect(openWork(f).map((w) => w.text)).toEqual([
    'the last request is not finished: it asked to push, and no `git push` ran after it: "write the notes, then commit and push please"',
  ]);
  expect(f.lastCommitLine).toBe(3); // the commit's result line: files written before it are committed
});
