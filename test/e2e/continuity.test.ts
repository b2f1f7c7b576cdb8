/**
 * Issue 10 end to end: a chain of sessions under `ctx respawn start` (real
 * client, real tmux, fake API) keeps the original goal and every open task
 * through three unattended cycles.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { CTX_BIN } from "../helpers/ctx.ts";
import { ALLOWED_TOOLS, CLAUDE_BIN, continuityHooks, hookEntry, runClaudeP, TEST_MODEL } from "./claude.ts";
import { allText, lastToolResults, lastUserText, type LoggedRequest, type Turn } from "./fake-api.ts";
import { explain, usageAt, waitUntil } from "./respawn-harness.ts";
import { clearAndPrompt, startClient, stopAfterEach } from "./client-pane.ts";

const GOAL = "GOAL-8841: build the alpaca exporter";
const KICK = "KICKSTART-5120: continue the work from the summary.";
const rig = stopAfterEach();

const isKickstart = (req: LoggedRequest) => lastUserText(req).includes(KICK) && lastToolResults(req).length === 0;
const tool = (name: string, input: Record<string, unknown>, pct = 10): Turn => ({
  content: [{ type: "tool_use", name, input }],
  usage: usageAt(pct),
});
const task = (subject: string) => tool("TaskCreate", { subject, description: subject, activeForm: subject });
/** Session 1 of every chain here: three tasks, the first completed, then `text` at `pct` % of the window. */
const threeTasks = (text: string, pct: number): Turn[] => [
  task("Write the parser"),
  task("Write the exporter"),
  task("Write the docs"),
  tool("TaskUpdate", { taskId: "1", status: "completed" }),
  { content: [{ type: "text", text }], usage: usageAt(pct) },
];
/** A fresh session's first request carries `goal` and every open task, never the completed one as open. */
function expectCarried(text: string, goal: string): void {
  expect(text).toContain(goal);
  expect(text).toMatch(/- \[ \] #\d+ Write the exporter/);
  expect(text).toMatch(/- \[ \] #\d+ Write the docs/);
  expect(text).not.toMatch(/- \[ \] #\d+ Write the parser/);
}

test("e2e continuity: three unattended respawn cycles keep the goal and every open task", async () => {
  let kicks = 0;
  // Session 1: three tasks, the first completed, then the context fills up.
  const first = threeTasks("Parser done because the format is CSV; exporter next.", 91);
  const api = await rig.api((req, i): Turn => {
    if (isKickstart(req)) {
      kicks++;
      // Each fresh session does one step at low usage...
      return tool("Bash", { command: `echo step-${kicks} > step-${kicks}.txt`, description: "step" }, 20);
    }
    if (kicks === 0) return first[Math.min(i, first.length - 1)]!;
    // ...and fills up again (three cycles), then stays low.
    return { content: [{ type: "text", text: `Step ${kicks} done.` }], usage: usageAt(kicks < 3 ? 92 : 30) };
  });
  const sup = await rig.supervise(api, GOAL, {
    CTX_RESPAWN_COMPACT_AT: "off",
    CTX_RESPAWN_RESTART_AT: "90",
    CTX_RESPAWN_KICKSTART_PROMPT: KICK,
  });
  const rec = await waitUntil(
    () => sup.record()?.cycles >= 3 && sup.record(),
    200_000,
    () => explain(sup),
  );
  await waitUntil(
    () => api.mainRequests().filter(isKickstart).length >= 3,
    30_000,
    () => explain(sup),
  );

  const kickReqs = api.mainRequests().filter(isKickstart);
  expect(kickReqs).toHaveLength(3);
  for (const req of kickReqs) {
    const text = allText(req);
    // The first request of every fresh session: the goal and every open task, never the completed one as open.
    expectCarried(text, `> ${GOAL}`);
    expect(text).toMatch(/- \[x\] #\d+ Write the parser/);
  }
  const summaries = rec.events.filter((e: any) => e.event === "summary").map((e: any) => e.detail as string);
  expect(summaries.length).toBeGreaterThanOrEqual(3);
  // One chain, one task id: every summary carries the same one in its name.
  const chainOf = (p: string) => /summary-(.+)-\d{8}-\d{6}\.md$/.exec(p)![1];
  expect(new Set(summaries.map(chainOf)).size).toBe(1);
  expect(chainOf(summaries[0]!)).toMatch(/^chain-[0-9a-f]{8}$/);
  const third = readFileSync(summaries[2]!, "utf8");
  expect(third).toContain(`## Goal\n> ${GOAL}`);
  expect(third).toContain("Sessions (3, oldest first)");
  expect(third).toMatch(/- Bash echo step-2 > step-2\.txt \(this session\)/);
  expect(third).toContain("Parser done because the format is CSV");
  expect(kickReqs[2] && allText(kickReqs[2])).toContain("step-2");
  // The sessions shared the chain's native task list (CLAUDE_CODE_TASK_LIST_ID), which /clear kept:
  // the prompt says to update those tasks, not to create them again.
  const list = `${sup.sandbox.home}/.claude/tasks/${chainOf(summaries[0]!)}`;
  const stored = [1, 2, 3].map((n) => JSON.parse(readFileSync(`${list}/${n}.json`, "utf8")).status);
  expect(stored).toEqual(["completed", "pending", "pending"]);
  for (const req of kickReqs) expect(allText(req)).toContain("do not create them again");
  console.log(`third summary: ${third.length} characters (${summaries[2]})`);
}, 300_000);

/** Polls the project's summaries until there are `n`; returns them oldest first (by name). */
async function summariesAtLeast(project: string, n: number): Promise<string[]> {
  const dir = `${project}/.ctx/sessions`;
  const list = () =>
    existsSync(dir) ? [...new Bun.Glob("summary-*.md").scanSync(dir)].sort().map((f) => `${dir}/${f}`) : [];
  return waitUntil(
    () => list().length >= n && list(),
    20_000,
    () => `summaries: ${list().join(", ")}`,
  );
}

test("e2e continuity: ctx resume --latest -- -p twice in a row (headless) carries the chain", async () => {
  let resumes = 0;
  const isResume = (req: LoggedRequest) =>
    lastUserText(req).includes("<previous-session-summary>") && lastToolResults(req).length === 0;
  const first = threeTasks("Parser done.", 40);
  const api = await rig.api((req, i): Turn => {
    if (isResume(req)) {
      resumes++;
      return tool("Bash", { command: `echo resumed-${resumes} > resumed-${resumes}.txt`, description: "step" }, 20);
    }
    if (resumes === 0) return first[Math.min(i, first.length - 1)]!;
    return { content: [{ type: "text", text: `Resumed step ${resumes} done.` }], usage: usageAt(25) };
  });
  const hooks = continuityHooks();
  const sandbox = await rig.sandbox({
    apiUrl: api.url,
    settings: { hooks },
    extraEnv: { CTX_TRACK_FINALIZE_ON_END: "always", CTX_CLAUDE: CLAUDE_BIN },
  });
  expect((await runClaudeP(sandbox, GOAL, { timeoutMs: 60_000 })).code).toBe(0);
  const [s1] = await summariesAtLeast(sandbox.project, 1);
  const resume = async () => {
    const passthrough = ["-p", "--model", TEST_MODEL, "--allowedTools", ...ALLOWED_TOOLS, "--output-format", "json"];
    const p = Bun.spawn([CTX_BIN, "resume", "--latest", "--", ...passthrough], {
      cwd: sandbox.project,
      env: sandbox.env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    expect({ code, err: code === 0 ? "" : `${out}\n${err}` }).toEqual({ code: 0, err: "" });
  };
  await resume();
  const [, s2] = await summariesAtLeast(sandbox.project, 2);
  await resume();
  await summariesAtLeast(sandbox.project, 3);

  const resumed = api.mainRequests().filter(isResume);
  expect(resumed).toHaveLength(2);
  for (const req of resumed) {
    const text = allText(req);
    expectCarried(text, `> ${GOAL}`);
  }
  expect(allText(resumed[1]!)).toContain("resumed-1");
  // One chain: the same task id in every name, and the resumed session links back to the one it resumed.
  const chain = (p: string) => /summary-(.+)-\d{8}-\d{6}\.md$/.exec(p)![1];
  expect(chain(s2!)).toBe(chain(s1!));
  const twin2 = JSON.parse(readFileSync(s2!.replace(/\.md$/, ".json"), "utf8"));
  expect(twin2.sessions).toHaveLength(2);
  const state2 = JSON.parse(readFileSync(`${sandbox.project}/.ctx/state/sessions/${twin2.session_id}.json`, "utf8"));
  expect(state2.previous_session_id).toBe(twin2.sessions[0]);
  expect(state2.task_id).toBe(chain(s1!));
}, 180_000);

test("e2e continuity: the same chain through /clear with only the hooks (no supervisor)", async () => {
  let clears = 0;
  // A bare "go on" (a continue-style one-liner: never the goal); the hook's context may share its message.
  const isContinue = (req: LoggedRequest) => /^go on$/m.test(lastUserText(req)) && !lastToolResults(req).length;
  const first = threeTasks("Parser done.", 40);
  const api = await rig.api((req, i): Turn => {
    if (isContinue(req)) {
      clears++;
      return tool("Bash", { command: `echo cleared-${clears} > cleared-${clears}.txt`, description: "step" }, 20);
    }
    if (clears === 0) return first[Math.min(i, first.length - 1)]!;
    return { content: [{ type: "text", text: `Step ${clears} done.` }], usage: usageAt(25) };
  });
  const hooks = continuityHooks();
  const sandbox = await rig.sandbox({
    apiUrl: api.url,
    settings: { hooks },
    // The resume hook waits for the cleared session's finalize up to 10 s by default; under the test
    // suite's load (seven runs on two cores) that finalize can take longer. The budget is not the subject here.
    extraEnv: { CTX_TRACK_FINALIZE_ON_END: "always", CTX_RESUME_FINALIZE_WAIT_MS: "60000" },
  });
  const pane = await startClient(sandbox);
  try {
    await pane.sendText(GOAL);
    await pane.waitFor(/Parser done\./, 40_000);
    for (const n of [1, 2]) {
      await clearAndPrompt(pane, sandbox.project, "go on");
      await pane.waitFor(new RegExp(`Step ${n} done\\.`), 40_000);
    }
  } finally {
    await pane.kill();
  }
  const fresh = api.mainRequests().filter(isContinue);
  expect(fresh).toHaveLength(2);
  for (const req of fresh) {
    const text = allText(req);
    // The goal survives the bare "go on" of the session before; every open task, never the completed one.
    expectCarried(text, `## Goal\n> ${GOAL}`);
  }
  expect(allText(fresh[1]!)).toContain("cleared-1");
}, 180_000);

test("e2e continuity: interactive, the summary the monitor writes at CRITICAL reports the status line's 78 %", async () => {
  const step = (n: number, pct: number): Turn => tool("Bash", { command: `echo work-${n}`, description: "work" }, pct);
  const api = await rig.api((_req, i): Turn => {
    if (i === 0) return step(0, 60);
    if (i < 3) return step(i, 78);
    return { content: [{ type: "text", text: "Stopping here." }], usage: usageAt(78) };
  });
  const hooks: Record<string, object[]> = {};
  for (const e of ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"])
    hooks[e] = hookEntry(`${CTX_BIN} track`, e === "PostToolUse" ? "*" : undefined);
  hooks.PostToolUse = [...hooks.PostToolUse!, ...hookEntry(`${CTX_BIN} monitor`, "*")];
  const sandbox = await rig.sandbox({
    apiUrl: api.url,
    settings: { hooks, statusLine: { type: "command", command: `${CTX_BIN} statusline`, padding: 0 } },
    extraEnv: { NO_COLOR: "1" },
  });
  const pane = await startClient(sandbox);
  try {
    await pane.sendText(GOAL);
    await pane.waitFor(/Stopping here\./, 60_000);
    const [summary] = await summariesAtLeast(sandbox.project, 1);
    // The background finalize may still be writing the twin's sibling: wait for the record too.
    await waitUntil(
      () => existsSync(`${sandbox.project}/.ctx/sessions/LATEST-SESSION.txt`),
      20_000,
      () => "no record",
    );
    const text = readFileSync(summary!, "utf8");
    expect(text).toContain("- Context at handoff: 78% used (156000 / 200000 tokens");
    expect(text).toContain(`## Goal\n> ${GOAL}`);
    const record = readFileSync(`${sandbox.project}/.ctx/sessions/LATEST-SESSION.txt`, "utf8").trim();
    expect(JSON.parse(readFileSync(`${sandbox.project}/.ctx/sessions/${record}`, "utf8")).reason).toBe("critical");
  } finally {
    await pane.kill();
  }
}, 120_000);
