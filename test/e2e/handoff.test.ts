/**
 * Issue 20, "never lose the handoff" and "one project", with the real client (both pinned versions) wired by
 * `ctx install`: CRITICAL crossed on a failing Bash call reaches the agent and writes the summary; `/clear`
 * after CRITICAL hands the next session the steps taken after that summary; a client started in a subfolder
 * keeps one `.ctx/` at the repository root, where `ctx resume --latest` finds its summary.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { runChild } from "../../src/io/process/child.ts";
import { ALLOWED_TOOLS, CLAUDE_BIN, headlessArgs, type Sandbox } from "./claude.ts";
import { contentText, lastToolResults, type LoggedRequest, type Turn } from "./fake-api.ts";
import { usageAt, waitUntil } from "./respawn-harness.ts";
import { clearAndPrompt, startClient, stopAfterEach } from "./client-pane.ts";

const rig = stopAfterEach();

const bash = (command: string, pct: number): Turn => ({
  content: [{ type: "tool_use", name: "Bash", input: { command, description: "step" } }],
  usage: usageAt(pct),
});
const say = (text: string, pct: number): Turn => ({ content: [{ type: "text", text }], usage: usageAt(pct) });

/** Every text after the request's last assistant turn: where a hook's context lands (PROTOCOL.md). */
function sinceLastAssistant(req: LoggedRequest): string {
  const msgs: any[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  let i = msgs.length - 1;
  while (i >= 0 && msgs[i]?.role !== "assistant") i--;
  return msgs
    .slice(i + 1)
    .map((m) => contentText(m?.content))
    .join("\n");
}

/** A sandbox wired by `ctx install` (status line and every hook, this build's absolute path). */
async function installed(apiUrl: string, trusted: string[] = []): Promise<Sandbox> {
  const s = await rig.sandbox({ apiUrl, extraEnv: { NO_COLOR: "1" } });
  const inst = await runCtx(["install"], { env: s.env, cwd: s.project });
  expect(inst.code).toBe(0);
  if (trusted.length) {
    const path = join(s.home, ".claude.json");
    const conf = JSON.parse(readFileSync(path, "utf8"));
    for (const dir of trusted) conf.projects[dir] = { hasTrustDialogAccepted: true, allowedTools: ALLOWED_TOOLS };
    await Bun.write(path, JSON.stringify(conf, null, 2));
  }
  return s;
}

/** The project's summaries (`summary-*.md`), by name. */
function summaries(project: string): string[] {
  const dir = join(project, ".ctx", "sessions");
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => /^summary-.*\.md$/.test(n))
        .sort()
    : [];
}

/** Runs `claude -p` headless in `cwd` (the sandbox's project unless given). */
async function headless(s: Sandbox, prompt: string, cwd = s.project) {
  const r = await runChild([CLAUDE_BIN, ...headlessArgs(prompt)], { cwd, env: s.env, timeoutMs: 90_000 });
  expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(r.stdout);
}

test("e2e handoff: CRITICAL crossed on a failing Bash call reaches the agent, and .ctx/sessions holds the summary", async () => {
  // 50 %, then a Bash call that fails with the context at 78 %: only PostToolUseFailure fires for it.
  const turns = [bash("echo warm-up", 50), bash("ls /no/such/dir-4417", 78), say("Stopping here.", 78)];
  const api = await rig.api((_req, i) => turns[Math.min(i, turns.length - 1)]);
  const sandbox = await installed(api.url);
  const result = await headless(sandbox, "GOAL-3390: list the data directory");
  const main = api.mainRequests();
  expect(main).toHaveLength(3);
  expect(lastToolResults(main[2]!)[0]?.is_error).toBe(true);
  const context = sinceLastAssistant(main[2]!);
  // The settings hook's words (2.1.197), or ctx's mod's (clients that run mods: `ctx install` wrote both).
  expect(context).toMatch(/(PostToolUseFailure:Bash|tool\.call) hook additional context: CONTEXT CRITICAL: 78%/);
  // What it says of the summary is true: at that moment it is being written.
  expect(context).toContain("ctx is writing the handoff summary now");
  expect(context).not.toContain("The handoff summary is written");
  const written = await waitUntil(
    () => summaries(sandbox.project).length > 0 && summaries(sandbox.project),
    20_000,
    () => `no summary in ${sandbox.project}/.ctx/sessions`,
  );
  expect(written).toHaveLength(1);
  const path = join(sandbox.project, ".ctx", "sessions", written[0]!);
  expect(readFileSync(path, "utf8")).toContain("GOAL-3390");
  // Written when the failing call's result may not be in the transcript yet (the client writes it in
  // batches); SessionEnd writes the same file again, and then the failure is in it.
  const text = await waitUntil(
    () => readFileSync(path, "utf8").includes("FAIL `ls /no/such/dir-4417`") && readFileSync(path, "utf8"),
    20_000,
    () => `the summary was not refreshed:\n${readFileSync(path, "utf8")}`,
  );
  expect(text).toContain("- FAIL `ls /no/such/dir-4417`");
  expect(summaries(sandbox.project)).toHaveLength(1);
  const state = JSON.parse(
    readFileSync(join(sandbox.project, ".ctx", "state", "sessions", `${result.session_id}.json`), "utf8"),
  );
  expect(state.threshold_reached).toBe("critical");
}, 150_000);

test("e2e handoff: /clear after CRITICAL gives the next session the step taken after the CRITICAL summary", async () => {
  const LAST = "echo LAST-STEP-7731 > last-step.txt";
  let clears = 0;
  const isContinue = (req: LoggedRequest) => /^go on$/m.test(sinceLastAssistant(req)) && !lastToolResults(req).length;
  const isLast = (req: LoggedRequest) =>
    /do the last step/.test(sinceLastAssistant(req)) && !lastToolResults(req).length;
  let phase: "critical" | "last" | "fresh" = "critical";
  const api = await rig.api((req, i): Turn => {
    if (isContinue(req)) {
      clears++;
      phase = "fresh";
      return say("Continuing from the summary.", 10);
    }
    if (isLast(req)) phase = "last";
    if (phase === "critical") return i === 0 ? bash("echo first-step", 78) : say("Paused at CRITICAL.", 78);
    if (phase === "last") return lastToolResults(req).length ? say("Last step done.", 79) : bash(LAST, 79);
    return say("Continuing from the summary.", 10);
  });
  const sandbox = await installed(api.url);
  const pane = await startClient(sandbox);
  try {
    await pane.sendText("GOAL-5521: prepare the release");
    await pane.waitFor(/Paused at CRITICAL\./, 60_000);
    // The summary written at CRITICAL, before the last step: it cannot know that step.
    const [name] = await waitUntil(
      () => summaries(sandbox.project).length > 0 && summaries(sandbox.project),
      20_000,
      () => "no summary at CRITICAL",
    );
    const path = join(sandbox.project, ".ctx", "sessions", name!);
    await waitUntil(
      () => existsSync(join(sandbox.project, ".ctx", "sessions", "LATEST-SESSION.txt")),
      20_000,
      () => "no record",
    );
    expect(readFileSync(path, "utf8")).not.toContain("LAST-STEP-7731");
    await pane.sendText("do the last step");
    await pane.waitFor(/Last step done\./, 60_000);
    await clearAndPrompt(pane, sandbox.project, "go on");
    await pane.waitFor(/Continuing from the summary\./, 60_000);
  } finally {
    await pane.kill();
  }
  expect(clears).toBe(1);
  const first = api.mainRequests().find(isContinue)!;
  const text = sinceLastAssistant(first);
  expect(text).toContain("GOAL-5521");
  expect(text).toContain("LAST-STEP-7731");
  // One summary for the chain: the refresh rewrote the CRITICAL one.
  expect(summaries(sandbox.project)).toHaveLength(1);
}, 200_000);

test("e2e handoff: a session started in a subfolder keeps one .ctx/ at the repository root", async () => {
  const turns = [bash("echo in-the-subfolder", 78), say("Stopping here.", 78)];
  const api = await rig.api((_req, i) => turns[Math.min(i, turns.length - 1)]);
  const sandbox = await installed(api.url);
  const repo = sandbox.project;
  const sub2 = join(repo, "services", "api");
  const git = await runChild(["git", "init", "-q", "-b", "main"], { cwd: repo, env: sandbox.env, timeoutMs: 20_000 });
  expect(git.code).toBe(0);
  mkdirSync(sub2, { recursive: true });
  const result = await headless(sandbox, "GOAL-8802: tidy the api service", sub2);
  await waitUntil(
    () => summaries(repo).length > 0,
    20_000,
    () => `no summary in ${repo}/.ctx/sessions`,
  );
  // One .ctx/, at the repository root; none in the subfolder or between.
  expect(existsSync(join(repo, ".ctx", "state", "sessions", `${result.session_id}.json`))).toBe(true);
  expect(existsSync(join(sub2, ".ctx"))).toBe(false);
  expect(existsSync(join(repo, "services", ".ctx"))).toBe(false);
  // From the root, a person's `ctx resume --latest` finds the summary, and `ctx status` shows one project.
  const { CLAUDE_PROJECT_DIR: _p, ...shell } = sandbox.env;
  const latest = await runCtx(["resume", "--latest", "--print"], { env: shell, cwd: repo });
  expect(latest.code).toBe(0);
  expect(latest.stdout).toContain("GOAL-8802");
  expect(latest.stdout).toContain(join(repo, ".ctx", "sessions", "summary-"));
  const status = await runCtx(["status", "--all", "--json"], { env: shell, cwd: repo });
  const rows = JSON.parse(status.stdout);
  const list: { project: string }[] = Array.isArray(rows) ? rows : (rows.sessions ?? []);
  expect([...new Set(list.map((r) => r.project))]).toEqual([repo]);
}, 150_000);
