/**
 * `ctx finalize` over real lines (github.com/marot/spotter, MIT, commit
 * 8cc42b0bd39d04e71e509d7d58e6782ab435329f; test/fixtures/spotter-errors/README.md):
 * the failures that were fixed later are not listed, the `bd` tracker is, and
 * "How to continue" says what the summary holds.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const SPOTTER = join(import.meta.dir, "..", "fixtures", "spotter-errors");
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox({ CTX_TASK_ID: "task-4te" }));
});
afterEach(() => t.cleanup());

/** A transcript of the given excerpts, in order, optionally cut to its first `lines` lines. */
function transcript(names: string[], lines = Number.POSITIVE_INFINITY): string {
  const all = names.flatMap((n) => readFileSync(join(SPOTTER, n), "utf8").trim().split("\n"));
  const path = join(t.dir, "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl");
  writeFileSync(path, `${all.slice(0, lines).join("\n")}\n`);
  return path;
}
async function finalize(path: string): Promise<string> {
  const r = await runCtx(["finalize", "--transcript", path, "--project", project], { env, cwd: project });
  expect(r.code).toBe(0);
  return readFileSync(r.stdout.trim(), "utf8");
}
const section = (md: string, title: string) => md.slice(md.indexOf(`## ${title}`)).split("\n\n")[0]!;

test("a session that fixed its failures: none open, the bd items listed, nothing-open advice", async () => {
  const md = await finalize(transcript(["commit-hook-and-shell.jsonl", "bd-ready-in-a-row.jsonl"]));
  // The refused commits were made afterwards: history, counted, never open (issue 27).
  expect(section(md, "Unresolved errors")).toBe(
    "## Unresolved errors\n- 5 failures along the way, all followed by a success or reported done (history, not open work)",
  );
  expect(md).toContain("- FAIL `git add -A && git commit --no-verify -m");
  expect(section(md, "Remaining work (open tasks)")).toContain(
    "- Open when last listed (`bd ready; bd list --status=in_progress`):\n  - 4. [● P1] [task] spotter-vd6:",
  );
  const next = section(md, "How to continue");
  expect(next).toContain("- Tasks are kept in `bd`: run `bd list --status=open`");
  expect(next).toContain("- No open task or error: the last request was not found");
});

test("cut before the commit was made: the refused commit is open, by its newest attempt, and comes first in How to continue", async () => {
  const md = await finalize(transcript(["commit-hook-and-shell.jsonl"], 16));
  const lines = section(md, "Unresolved errors").split("\n").slice(1);
  const errors = lines.filter((l) => !l.includes("along the way"));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toStartWith("- Bash `git add -A && git commit --no-verify -m");
  expect(errors[0]).toContain("Pre-commit validation failed");
  expect(section(md, "How to continue")).toStartWith(
    "## How to continue\n- Still failing: Bash `git add -A && git commit --no-verify -m",
  );
});
