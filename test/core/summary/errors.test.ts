/**
 * Which errors are still open (docs/track-finalize.md). The real excerpts in
 * test/fixtures/spotter-errors/ come from github.com/marot/spotter (MIT), commit
 * 8cc42b0bd39d04e71e509d7d58e6782ab435329f, test/fixtures/transcripts/: see the README there.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mergeChain, type SummaryTwin } from "../../../src/core/summary/chain.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { failureKey, isResolved, successKeys } from "../../../src/core/summary/errors.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { achievedIntents, failedIntent } from "../../../src/core/summary/intent.ts";
import { shellParts } from "../../../src/core/summary/shell-parse.ts";

const SPOTTER = join(import.meta.dir, "..", "..", "fixtures", "spotter-errors");

/** The lines of a real excerpt, parsed. */
function excerpt(name: string): Array<Record<string, unknown>> {
  return readFileSync(join(SPOTTER, name), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}
function factsOf(entries: Array<Record<string, unknown>>): Facts {
  const f = emptyFacts();
  for (const e of entries) addEntry(f, e);
  return f;
}
/** Open errors as [key, shown target]. */
function open(f: Facts): Array<[string, string]> {
  return [...f.unresolved.entries()].map(([k, e]) => [k, e.target]);
}
let n = 0;
/** A synthetic Bash call and its result. */
function bash(command: string, ok: boolean, output = ok ? "" : "Exit code 1"): Array<Record<string, unknown>> {
  const id = `t${++n}`;
  return [
    { type: "assistant", message: { content: [{ type: "tool_use", id, name: "Bash", input: { command } }] } },
    { type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, content: output, is_error: !ok }] } },
  ];
}
function twinOf(f: Facts, sessionId: string, prev?: SummaryTwin): SummaryTwin {
  return mergeChain(prev, {
    taskId: "T",
    sessionId,
    listId: sessionId,
    links: [...(prev?.sessions ?? []), sessionId],
    facts: f,
    tasks: [],
    project: "/home/USER/projects/spotter-worktrees/spotter-4te",
    writtenAt: "2026-01-01T00:00:00.000Z",
  });
}

describe("real session 258c7280 (spotter): push, tests, a refused call, a stale Read", () => {
  const lines = excerpt("push-and-tests.jsonl");
  test("`git push` without upstream is open until `git push --set-upstream origin …` succeeds", () => {
    expect(open(factsOf(lines.slice(0, 4)))).toEqual([["run:git push", "git push 2>&1"]]);
    expect(open(factsOf(lines.slice(0, 6)))).toEqual([]);
  });
  test("… or until a `bd sync && git push` chain pushes", () => {
    expect(open(factsOf([...lines.slice(0, 4), ...lines.slice(12, 14)]))).toEqual([]);
  });
  test("two failing runs of one test file are one open error, shown by the newest attempt; its pass resolves it", () => {
    const f = factsOf(lines.slice(0, 10));
    const key = "run:mix test @ test/spotter_web/live/project_review_live_test.exs";
    expect([...f.unresolved.keys()]).toEqual([key]);
    expect(f.unresolved.get(key)!.message).toStartWith("Exit code 2 ==> fine Compiling 1 file"); // line 1111, not 945
    expect(open(factsOf(lines.slice(0, 12)))).toEqual([]);
  });
  test("the TaskOutput the user refused and the Read of a file that no longer exists leave nothing open", () => {
    const f = factsOf(lines);
    // the refused TaskOutput is an interrupt (requests.ts), not a failed call: 4 failures, not 5
    expect(f.errors.total).toBe(4);
    expect(f.stoppedAt).toBe("TaskOutput");
    expect(open(f)).toEqual([]);
    expect(open(factsOf(lines.slice(0, 2)))).toEqual([]);
    expect(open(factsOf(lines.slice(14)))).toEqual([]);
  });
});

describe("real session ae4a77f8 (spotter): a pre-commit hook, a zsh-only failure, an Edit", () => {
  const lines = excerpt("commit-hook-and-shell.jsonl");
  test("an Edit whose string was not found is open until the same file is edited", () => {
    expect(open(factsOf(lines.slice(0, 2)))).toEqual([
      ["file:/home/USER/projects/spotter-worktrees/spotter-4te/lib/spotter/telemetry/otel.ex", expect.any(String)],
    ]);
    expect(open(factsOf(lines.slice(0, 4)))).toEqual([]);
  });
  test("a commit refused by the hook is resolved by the commit made next", () => {
    expect(open(factsOf(lines.slice(4, 6)))[0]![0]).toBe("run:git commit");
    expect(open(factsOf(lines.slice(4, 8)))).toEqual([]);
  });
  test("the zsh failure of `source … && spotter_rand_hex … && spotter_generate_traceparent …` is resolved by the bash -c run", () => {
    expect(open(factsOf(lines.slice(8, 10))).map(([k]) => k)).toEqual(["run:spotter_generate_traceparent"]);
    expect(open(factsOf(lines.slice(8, 12)))).toEqual([]);
  });
  test("refused again (also with --no-verify): one open commit, its newest attempt; the commit after the compaction, with another message, resolves it", () => {
    const before = factsOf(lines.slice(0, 16));
    expect(open(before).map(([k]) => k)).toEqual(["run:git commit"]);
    expect(before.unresolved.get("run:git commit")!.target).toContain("git commit --no-verify");
    expect(open(factsOf(lines))).toEqual([]);
  });
  test("across a chain: the next session's commit resolves the error the twin carried", () => {
    const first = twinOf(factsOf(lines.slice(0, 16)), "s1");
    expect(first.errors.map((e) => e.key)).toEqual(["run:git commit"]);
    expect(twinOf(factsOf(lines.slice(16)), "s2", first).errors).toEqual([]);
    // A session that did something else carries it on.
    expect(twinOf(factsOf(bash("mix test", true)), "s2", first).errors.map((e) => e.key)).toEqual(["run:git commit"]);
  });
});

describe("real session ae4a77f8 (spotter): a piped test run hides its status", () => {
  const lines = excerpt("mix-test-piped.jsonl");
  test("`mix test | tail -30` with 11 failures in its output does not resolve a failed `mix test`; with 0 failures it does", () => {
    const failed = bash("mix test", false, "Exit code 2\n3 tests, 1 failure");
    expect(open(factsOf([...failed, ...lines.slice(0, 2)])).map(([k]) => k)).toEqual(["run:mix test"]);
    expect(open(factsOf([...failed, ...lines]))).toEqual([]);
  });
});

describe("intent of a command line (synthetic edge cases)", () => {
  const openAfter = (...steps: Array<[string, boolean]>) =>
    open(factsOf(steps.flatMap(([c, ok]) => bash(c, ok)))).map(([k]) => k);
  test("the table of docs/track-finalize.md", () => {
    expect(openAfter(["ruff check .", false], ["ruff check . && pytest", true])).toEqual([]);
    expect(openAfter(["mix test test/a.exs", false], ["mix test", true])).toEqual([]);
    expect(openAfter(["mix test test/a.exs", false], ["mix test test/b.exs", true])).toEqual([
      "run:mix test @ test/a.exs",
    ]);
    expect(openAfter(["cd app && npm run build", false], ["npm run lint", true])).toEqual(["run:npm run build"]);
    expect(
      openAfter(["cd app && npm run build", false], ["cd app && NODE_ENV=production npm run build", true]),
    ).toEqual([]);
    expect(openAfter(["ls testdata/", false], ["mkdir -p testdata", true])).toEqual([]);
  });
  test("a failure cancels an earlier success of what it tried", () => {
    expect(
      openAfter(["mix test test/a.exs", true], ["mix test test/a.exs", false], ["mix test test/b.exs", true]),
    ).toEqual(["run:mix test @ test/a.exs"]);
    expect(openAfter(["mix test", true], ["mix test test/a.exs", false], ["mix test test/b.exs", true])).toHaveLength(
      1,
    );
  });
  test("targets named in several later calls add up", () => {
    expect(openAfter(["pytest tests/a.py tests/b.py", false], ["pytest tests/a.py", true])).toHaveLength(1);
    expect(
      openAfter(["pytest tests/a.py tests/b.py", false], ["pytest tests/a.py", true], ["pytest tests/b.py", true]),
    ).toEqual([]);
  });
  test("a step whose status `;` hides counts only when its output reports no failure", () => {
    const f = factsOf([
      ...bash("mix format --check-formatted", false),
      ...bash("mix format --check-formatted; mix credo", true, "2 errors\n"),
    ]);
    expect(open(f).map(([k]) => k)).toEqual(["run:mix format"]);
  });
  test("a step before `||` is not achieved by the line's success", () => {
    expect(openAfter(["make build", false], ["make build || echo skipped", true])).toEqual(["run:make build"]);
  });
  test("here-document bodies are text, `$(…)` and `bash -c` are looked into, redirections dropped", () => {
    expect(shellParts("cat > notes.md <<'EOF'\nrm -rf / | x\nEOF\ngit add notes.md 2>&1").map((p) => p.words)).toEqual([
      ["cat"],
      ["git", "add", "notes.md"],
    ]);
    expect(failedIntent(`git commit -m "$(cat <<'EOF'\nfix: a ) b "quoted"\nEOF\n)" && echo done`)).toEqual({
      head: "git commit",
      targets: [],
    });
    expect(achievedIntents("v=$(go test ./...) && sh -c 'npx eslint src/'").map((i) => i.head)).toEqual([
      "go test",
      "eslint",
    ]);
    expect(failedIntent("sudo -E env A=1 timeout 60 uv run pytest -k slow tests/")).toEqual({
      head: "pytest",
      targets: ["tests"],
    });
  });
  test("lookups, refusals, cancelled siblings and a commit with nothing to commit are never open", () => {
    expect(failureKey("Read", { file_path: "/x" }, "File does not exist.")).toBeNull();
    expect(failureKey("Grep", { pattern: "x" }, "No matches")).toBeNull();
    expect(failureKey("Bash", { command: "git log master..HEAD 2>/dev/null" }, "Exit code 128")).toBeNull();
    expect(failureKey("Bash", { command: "cat a.txt | grep x" }, "Exit code 1")).toBeNull();
    expect(
      failureKey("Edit", { file_path: "/a" }, "<tool_use_error>Sibling tool call errored</tool_use_error>"),
    ).toBeNull();
    expect(
      failureKey("Bash", { command: "rm -rf build" }, "The user doesn't want to proceed with this tool use."),
    ).toBeNull();
    expect(failureKey("Bash", { command: "cat a > b" }, "Exit code 1")).toBe("run:cat a");
    expect(failureKey("Bash", { command: "test -f build/app && cd build" }, "Exit code 1")).toBeNull();
    expect(failureKey("Bash", { command: "echo hi 2>&1 >/dev/null" }, "Exit code 1")).toBeNull();
    expect(failureKey("Bash", { command: "mix test" }, "[Request interrupted by user for tool use]")).toBeNull();
    const clean = "Exit code 1\nOn branch main\nnothing to commit, working tree clean";
    expect(failureKey("Bash", { command: "git add -A && git commit -m done" }, clean)).toBeNull();
  });
  test("a line with no intent is matched by its exact text; keys of older twins by their command's intent", () => {
    expect(failureKey("Bash", { command: "echo x > /proc/ro" }, "denied")).toBe("bash:echo x > /proc/ro");
    expect(isResolved("bash:echo x > /proc/ro", new Set(successKeys("Bash", { command: "echo x > /proc/ro" })))).toBe(
      true,
    );
    const later = new Set(successKeys("Bash", { command: "git push --set-upstream origin main" }));
    expect(isResolved("bash:git push 2>&1", later)).toBe(true);
    expect(isResolved("bash:mix test", later)).toBe(false);
  });
  test("nesting is looked into three levels deep, no further (a line of 50,000 `eval`s is read at once)", () => {
    expect(failedIntent(`${"eval ".repeat(50_000)}make`)).toBeNull();
    expect(achievedIntents(`${"eval ".repeat(50_000)}make`)).toEqual([]);
    expect(failedIntent("eval eval make build")).toEqual({ head: "make build", targets: [] });
  });
  test("a Read of a file resolves no failed Edit of it; a Write does", () => {
    const edit = { file_path: "/a.ts", old_string: "x", new_string: "y" };
    expect(failureKey("Edit", edit, "String to replace not found")).toBe("file:/a.ts");
    expect(isResolved("file:/a.ts", new Set(successKeys("Read", { file_path: "/a.ts" })))).toBe(false);
    expect(isResolved("file:/a.ts", new Set(successKeys("Write", { file_path: "/a.ts" })))).toBe(true);
  });
});

describe("real session 8463c716 (spotter, bench/corpus): a script named from another folder, a skill's lookup", () => {
  /** Whole lines of bench/corpus/spotter/8463c716-….jsonl (the corpus README names the source). */
  const corpus = readFileSync(
    join(import.meta.dir, "..", "..", "..", "bench", "corpus", "spotter", "8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl"),
    "utf8",
  ).split("\n");
  const lines = (...nums: number[]) => nums.map((k) => JSON.parse(corpus[k - 1]!) as Record<string, unknown>);

  test("`node assets/build.js` that failed is resolved by `cd …/assets && node build.js`", () => {
    const failed = factsOf(lines(784, 791));
    expect(open(failed).map(([k]) => k)).toEqual(["run:node @ assets/build.js"]);
    expect(open(factsOf(lines(784, 791, 798, 805)))).toEqual([]);
  });

  test("a skill whose own `git log main..HEAD` failed leaves nothing open (a lookup)", () => {
    expect(open(factsOf(lines(319, 321)))).toEqual([]);
    expect(failureKey("Skill", { skill: "x" }, 'Bash command failed for pattern "!`npm run build`": boom')).toBe(
      "run:npm run build",
    );
  });

  test("a later failure of the same script drops what the earlier success achieved", () => {
    const f = factsOf([...bash("node tools/gen.js", true), ...bash("node tools/gen.js", false)]);
    expect(open(f).map(([k]) => k)).toEqual(["run:node @ tools/gen.js"]);
  });
});

describe("PowerShell command lines (starcar e92f5a0b, development half)", () => {
  test("`$j = gh run view …` runs gh; cmdlet filters and script blocks are not the step judged", () => {
    // Line 869 failed (Exit code 1); line 876 read the same run another way and succeeded.
    const failed =
      "cd C:\\repo\n$jobId = gh run view 300 --json jobs --jq '.jobs[0].databaseId'\ngh run view --job $jobId --log 2>&1 | Select-String -Pattern 'fail' | Select-Object -Last 14 | ForEach-Object { ($_.Line -split '\\t')[-1] }";
    expect(failedIntent(failed)?.head).toBe("gh run");
    const later = "cd C:\\repo\n$j = gh run view 300 --json jobs --jq '.jobs[0].databaseId'\nWrite-Host \"job: $j\"";
    expect(achievedIntents(later).map((i) => i.head)).toEqual(["gh run"]);
  });
});
