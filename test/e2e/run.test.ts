/**
 * `ctx run` with the real Claude Code client (CTX_TEST_CLIENT) against the fake API: a scripted
 * task that needs three legs, the same task with a usage limit in the second leg, and a brake.
 * The hooks are the ones `ctx install` writes; the restart level is `--restart-at 60` (120k of
 * the 200k window).
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { ALLOWED_TOOLS, makeSandbox, CLAUDE_BIN, TEST_MODEL, type Sandbox } from "./claude.ts";
import { allText, startFakeApi, type Block, type FakeApi, type LoggedRequest, type Turn } from "./fake-api.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await api?.stop();
  sandbox?.cleanup();
  api = sandbox = undefined;
});

const GOAL = "GOAL-7731: write a.txt, b.txt and c.txt, one task each, and mark each task done";
const RESTART_AT = 60;
const RESTART_TOKENS = 200_000 * (RESTART_AT / 100);

const at = (used: number, ...content: Block[]): Turn => ({
  content,
  usage: { input_tokens: 100, cache_read_input_tokens: used - 100, output_tokens: 20 },
});
const task = (subject: string): Block => ({
  type: "tool_use",
  name: "TaskCreate",
  input: { subject, description: subject, activeForm: subject },
});
const done = (id: string): Block => ({
  type: "tool_use",
  name: "TaskUpdate",
  input: { taskId: id, status: "completed" },
});

/** The three legs' replies, by the leg's step (the number of replies before, in its conversation). */
function plan(project: string): Turn[][] {
  const write = (name: string): Block => ({
    type: "tool_use",
    name: "Write",
    input: { file_path: join(project, name), content: `${name}\n` },
  });
  return [
    [
      at(20_000, task("Write a.txt")),
      at(30_000, task("Write b.txt")),
      at(40_000, task("Write c.txt")),
      at(50_000, write("a.txt")),
      at(125_000, done("1")),
    ],
    [at(30_000, write("b.txt")), at(126_000, done("2"))],
    [
      at(30_000, write("c.txt")),
      at(40_000, done("3")),
      at(45_000, { type: "text", text: "RESULT-OK: all three files written." }),
    ],
  ];
}

interface Served {
  leg: number;
  step: number;
  used: number;
  /** When it was answered (ms). */
  at: number;
  req: LoggedRequest;
}

/**
 * Starts the fake API for the three-leg task (or `legs`); with `limitForS`, leg 2's first request is answered
 * with a subscription 429 until that many seconds after it first came (`limit.until`, unix seconds), so a
 * slow first leg cannot outlast the limit.
 */
async function setUp(
  limitForS?: number,
  legsOf: (project: string) => Turn[][] = plan,
): Promise<{ served: Served[]; limit: { until: number } }> {
  const served: Served[] = [];
  const limit = { until: 0 };
  let legs = 0;
  let project = "";
  api = await startFakeApi((req): Turn | undefined => {
    const step = Math.floor(((req.body?.messages?.length ?? 1) - 1) / 2);
    if (step === 0) legs++;
    if (limitForS !== undefined && legs === 2 && step === 0 && limit.until === 0)
      limit.until = Math.ceil(Date.now() / 1000) + limitForS;
    const limitUntil = limit.until;
    if (limitForS !== undefined && legs === 2 && step === 0 && Date.now() / 1000 < limitUntil) {
      legs--; // the leg is started again after the wait
      return {
        content: [],
        error: {
          status: 429,
          type: "rate_limit_error",
          message: "This request would exceed your account's rate limit. Please try again later.",
          headers: {
            "anthropic-ratelimit-unified-status": "rejected",
            "anthropic-ratelimit-unified-reset": String(limitUntil),
            "anthropic-ratelimit-unified-representative-claim": "five_hour",
            "anthropic-ratelimit-unified-5h-status": "rejected",
            "anthropic-ratelimit-unified-5h-reset": String(limitUntil),
            "anthropic-ratelimit-unified-5h-utilization": "1.0",
            "x-should-retry": "false",
          },
        },
      };
    }
    const turn = legsOf(project)[legs - 1]?.[step];
    if (turn)
      served.push({
        leg: legs,
        step,
        used: turn.usage!.input_tokens + (turn.usage!.cache_read_input_tokens ?? 0),
        at: Date.now(),
        req,
      });
    return turn;
  });
  const oauth = limitForS !== undefined;
  sandbox = await makeSandbox({
    apiUrl: api.url,
    extraEnv: oauth ? { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-e2e-run-test-token" } : {},
  });
  if (oauth) delete sandbox.env.ANTHROPIC_API_KEY;
  project = sandbox.project;
  const install = await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
  expect(install.code).toBe(0);
  return { served, limit };
}

/** The command line of `ctx run` the tests give, the binary first. */
function ctxRunArgv(extra: string[] = []): string[] {
  const args = ["run", "-p", GOAL, "--restart-at", String(RESTART_AT), "--limit-margin", "1", ...extra];
  return [CTX_BIN, ...args, "--", "--model", TEST_MODEL, "--allowedTools", ...ALLOWED_TOOLS];
}

async function ctxRun(extra: string[] = []) {
  return runCtx(ctxRunArgv(extra).slice(1), {
    env: { ...sandbox!.env, CTX_CLAUDE: CLAUDE_BIN },
    cwd: sandbox!.project,
    timeoutMs: 240_000,
  });
}

/** Every leg's first request holds the goal; from the second leg on, the open tasks too. */
function checkFirstRequests(served: Served[], legs: number): void {
  const firsts = served.filter((s) => s.step === 0);
  expect(firsts.map((s) => s.leg)).toEqual(Array.from({ length: legs }, (_, i) => i + 1));
  for (const s of firsts) expect(allText(s.req)).toContain(GOAL);
  const open: Record<number, string[]> = { 2: ["Write b.txt", "Write c.txt"], 3: ["Write c.txt"] };
  for (const s of firsts.filter((f) => f.leg > 1)) for (const t of open[s.leg]!) expect(allText(s.req)).toContain(t);
  expect(allText(firsts.find((f) => f.leg === 3)!.req)).not.toMatch(/- \[ \] #?2\b.*Write b\.txt/);
}

/** No request went out once its conversation had reached the restart level. */
function checkRestartLevel(served: Served[]): void {
  for (const s of served.filter((x) => x.step > 0)) {
    const before = served.find((x) => x.leg === s.leg && x.step === s.step - 1)!;
    expect(before.used).toBeLessThan(RESTART_TOKENS);
  }
  expect(served.filter((s) => s.used >= RESTART_TOKENS).map((s) => `${s.leg}:${s.step}`)).toEqual(["1:4", "2:1"]);
}

test("ctx run: a task that needs three legs completes, each leg from the summary of the last", async () => {
  const { served } = await setUp();
  // as a workflow runs it: in a git repository, its report and stderr redirected to files in it
  expect(Bun.spawnSync(["git", "init", "-q"], { cwd: sandbox!.project }).exitCode).toBe(0);
  const out = join(sandbox!.project, "ctx-run.json");
  const err = join(sandbox!.project, "ctx-run.err");
  const shell = await runCtx(["--version"], { env: sandbox!.env, cwd: sandbox!.project });
  const sh = Bun.spawn(["sh", "-c", `"$0" "$@" > '${out}' 2> '${err}'`, ...ctxRunArgv(["--json"])], {
    cwd: sandbox!.project,
    env: { ...sandbox!.env, CTX_CLAUDE: CLAUDE_BIN },
  });
  const r = { code: await sh.exited, stdout: readFileSync(out, "utf8"), stderr: readFileSync(err, "utf8") };
  console.log(r.stderr);
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.outcome).toBe("done");
  expect([report.version, report.ctx_version]).toEqual([1, shell.stdout.trim().replace(/^ctx /, "")]);
  // the last leg leaves a summary too; no summary names the run's own output files
  expect(existsSync(report.summary)).toBe(true);
  for (const leg of report.legs) expect(readFileSync(leg.summary, "utf8")).not.toContain("ctx-run.");
  expect(report.legs.map((l: { end: string }) => l.end)).toEqual(["stopped", "stopped", "finished"]);
  expect(report.result).toContain("RESULT-OK");
  expect(report.legs[0].summary).toMatch(new RegExp(`/\\.ctx/sessions/summary-${report.task_id}-`));
  for (const f of ["a.txt", "b.txt", "c.txt"]) expect(readFileSync(join(sandbox!.project, f), "utf8")).toBe(`${f}\n`);
  checkFirstRequests(served, 3);
  checkRestartLevel(served);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("ctx run:"));
  expect(lines.filter((l) => / ended at \d+% used \(restart at 60%\)/.test(l))).toHaveLength(2);
  expect(lines.filter((l) => / summary \/.*summary-.*\.md$/.test(l))).toHaveLength(2);
  expect(lines.at(-1)).toMatch(/^ctx run: done after 3 legs in \d+ s$/);
}, 240_000);

test("ctx run: a usage limit in the second leg is waited out and the run completes", async () => {
  const { served, limit } = await setUp(5);
  const r = await ctxRun();
  console.log(r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("RESULT-OK");
  // 2.1.197 says "session limit", 2.1.328+ "5-hour limit"; both give the reset to the minute, and 2.1.332
  // leaves out ":00" on the hour ("resets 11pm").
  expect(r.stderr).toMatch(
    /leg 2 hit the usage limit: You've hit your (session|5-hour) limit · resets \d+(?::\d\d)?[ap]m \(UTC\)/,
  );
  expect(r.stderr).toMatch(/ctx run: waiting \d+ s for the usage limit/);
  expect(r.stderr).toMatch(/ctx run: leg 2 started again after the usage limit/);
  // .legs has the leg run again after the limit too, and the closing line counts as it does
  // (the limit resets to the minute: leg 2 may be run again more than once)
  const done = /ctx run: done after (\d+) legs \((\d+) runs? again after a usage limit\) in \d+ s\n$/.exec(r.stderr);
  expect(done).not.toBeNull();
  expect(Number(done![1])).toBe(3 + Number(done![2]));
  expect(r.stderr.match(/started again after the usage limit/g)).toHaveLength(Number(done![2]));
  // Leg 2 went on only after the reset.
  const second = served.find((s) => s.leg === 2 && s.step === 0)!;
  expect(limit.until).toBeGreaterThan(0);
  expect(second.at / 1000).toBeGreaterThanOrEqual(limit.until);
  checkFirstRequests(served, 3);
  checkRestartLevel(served);
}, 240_000);

test("ctx run: the --max-legs brake ends the run with exit 3", async () => {
  const { served } = await setUp();
  const r = await ctxRun(["--max-legs", "2", "--json"]);
  expect(r.code).toBe(3);
  const report = JSON.parse(r.stdout);
  expect(report.outcome).toBe("brake");
  expect(report.brake).toBe("max_legs");
  expect(report.legs).toHaveLength(2);
  expect(served.filter((s) => s.leg === 3)).toHaveLength(0);
  expect(r.stderr).toMatch(/ctx run: gave up at a brake \(max_legs\)/);
  expect(existsSync(join(sandbox!.project, "c.txt"))).toBe(false);
}, 240_000);

test("ctx run: legs that reach the restart level by their first tool call trip the no-progress brake (exit 3)", async () => {
  // Every leg starts too full: its first reply is already past the restart level.
  const full = (): Turn[][] => Array.from({ length: 5 }, () => [at(130_000, task("Write a.txt"))]);
  const { served } = await setUp(undefined, full);
  const r = await ctxRun(["--json"]);
  expect(r.code).toBe(3);
  const report = JSON.parse(r.stdout);
  expect([report.outcome, report.brake]).toEqual(["brake", "no_progress"]);
  expect(report.legs.map((l: { end: string }) => l.end)).toEqual(["stopped", "stopped"]);
  expect(served.map((s) => `${s.leg}:${s.step}`)).toEqual(["1:0", "2:0"]);
  expect(r.stderr).toMatch(/ctx run: gave up at a brake \(no_progress\): 2 legs in a row/);
}, 240_000);

test("ctx run: --max-time ends a leg still running at the deadline and gives up at the brake (exit 3)", async () => {
  // The first reply takes far longer than the run may.
  const slow = (): Turn[][] => [[{ ...at(20_000, task("Write a.txt")), delayMs: 60_000 }]];
  await setUp(undefined, slow);
  const r = await ctxRun(["--max-time", "3", "--json"]);
  expect(r.code).toBe(3);
  const report = JSON.parse(r.stdout);
  expect([report.outcome, report.brake]).toEqual(["brake", "max_time"]);
  expect(report.legs).toHaveLength(1);
  expect([report.legs[0].end, report.legs[0].detail]).toEqual([
    "brake",
    "the wall time ran out during the leg (--max-time)",
  ]);
  expect(r.stderr).toContain("ctx run: leg 1 ended at a brake: the wall time ran out during the leg (--max-time)");
  expect(r.stderr).not.toMatch(/leg 1 failed/);
  expect(r.stderr).toMatch(/ctx run: gave up at a brake \(max_time\): the wall time ran out during the leg/);
  // a leg ended by --max-time still leaves its summary for the workflow to upload
  expect(report.legs[0].summary).toMatch(/\/\.ctx\/sessions\/summary-/);
  expect(existsSync(report.summary)).toBe(true);
}, 240_000);
