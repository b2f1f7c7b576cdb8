/**
 * Eight sessions of one project finalized at the same moment: every one gets
 * its own summary and its own session record (`session-<stamp>.{json,yaml,md}`
 * and `-incremental.jsonl`); none overwrites another's.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox()));
afterEach(() => sb.cleanup());

test("8 parallel finalizes of one project: 8 summaries, 8 records of each kind, one per session", async () => {
  const sessions = join(sb.project, ".ctx", "sessions");
  mkdirSync(sessions, { recursive: true });
  const ids = Array.from({ length: 8 }, (_, i) => `par-${i}`);
  for (const id of ids)
    writeFileSync(
      join(sessions, `ACTIVE-PAUSE-${id}.jsonl`),
      `${JSON.stringify({ type: "tool_call", timestamp: new Date().toISOString(), session_id: id, data: { tool: "Bash", args_summary: { command: `echo ${id}` } }, context_percentage: 91 })}\n`,
    );
  const runs = await Promise.all(
    ids.map((id) =>
      runCtx(["finalize", "--session", id, "--transcript", sb.transcript], {
        env: { ...sb.env, CTX_TASK_ID: "shared-task" },
        cwd: sb.project,
        timeoutMs: 60_000,
      }),
    ),
  );
  for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  const names = readdirSync(sessions);
  const of = (re: RegExp) => names.filter((n) => re.test(n));
  expect(of(/^summary-shared-task-\d{8}-\d{6}\.md$/)).toHaveLength(8);
  for (const ext of ["json", "yaml", "md"])
    expect({ ext, n: of(new RegExp(`^session-\\d{8}-\\d{6}\\.${ext}$`)).length }).toEqual({ ext, n: 8 });
  expect(of(/^session-\d{8}-\d{6}-incremental\.jsonl$/)).toHaveLength(8);
  const owners = of(/^session-\d{8}-\d{6}\.json$/).map(
    (n) => JSON.parse(readFileSync(join(sessions, n), "utf8")).session_id,
  );
  expect(owners.sort()).toEqual(ids);
  // Each incremental log holds its own session's action.
  for (const n of of(/-incremental\.jsonl$/)) {
    const rec = JSON.parse(readFileSync(join(sessions, n.replace("-incremental.jsonl", ".json")), "utf8"));
    expect(readFileSync(join(sessions, n), "utf8")).toContain(`"session_id":"${rec.session_id}"`);
  }
}, 120_000);
