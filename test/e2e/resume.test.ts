/**
 * `ctx resume` with the real Claude Code client against the fake API: the
 * headless launch puts the summary in the first request; in an interactive
 * session in tmux, `ctx resume --hook` on SessionStart gives the summary that
 * finalize wrote to the session after `/clear`, once.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { ALLOWED_TOOLS, CLAUDE_BIN, hookEntry, makeSandbox, TEST_MODEL, type Sandbox } from "./claude.ts";
import { allText, contentText, startFakeApi, type FakeApi, type LoggedRequest, type Turn } from "./fake-api.ts";
import { submit } from "./submit.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
  await tmux?.kill().catch(() => {});
  await api?.stop();
  sandbox?.cleanup();
  tmux = api = sandbox = undefined;
});

const MARK = "<previous-session-summary>";
const count = (text: string, needle: string): number => text.split(needle).length - 1;
/** Text of the user messages of a request (not the system prompt). */
const userText = (req: LoggedRequest): string =>
  (Array.isArray(req.body?.messages) ? req.body.messages : [])
    .filter((m: any) => m?.role === "user")
    .map((m: any) => contentText(m.content))
    .join("\n");

async function ctx(args: string[], env: Record<string, string>, cwd: string) {
  const proc = Bun.spawn([CTX_BIN, ...args], {
    env,
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

test("headless: ctx resume s.md -- -p … puts the summary in the first request and returns claude's result", async () => {
  api = await startFakeApi([
    {
      content: [{ type: "text", text: "Continuing with the parser." }],
      usage: { input_tokens: 900, output_tokens: 8 },
    },
  ]);
  sandbox = await makeSandbox({ apiUrl: api.url });
  const sessions = join(sandbox.project, ".ctx", "sessions");
  mkdirSync(sessions, { recursive: true });
  const s = join(sessions, "summary-task-7-20250101-120000.md");
  writeFileSync(s, "# Handoff summary: task-7\n\n## Remaining work\n- [ ] finish PARSER-42 error recovery\n");
  const env = { ...sandbox.env, CTX_CLAUDE: CLAUDE_BIN };
  const r = await ctx(
    ["resume", s, "--", "-p", "--model", TEST_MODEL, "--allowedTools", ...ALLOWED_TOOLS, "--output-format", "json"],
    env,
    sandbox.project,
  );
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({
    type: "result",
    is_error: false,
    result: "Continuing with the parser.",
  });

  const first = api.mainRequests()[0]!;
  const text = userText(first);
  expect(count(text, MARK)).toBe(1);
  expect(text).toContain("Read the previous session's summary below and continue the remaining work");
  expect(text).toContain("- [ ] finish PARSER-42 error recovery");
  expect(text).toContain(s);
  // the launch marked it consumed for the hooks
  const ledger = JSON.parse(readFileSync(join(sandbox.project, ".ctx", "state", "resume-ledger.json"), "utf8"));
  expect(ledger.consumed["summary-task-7-20250101-120000.md"].via).toBe("cli");
}, 60_000);

test("headless: claude's failure exit code comes back through ctx resume", async () => {
  api = await startFakeApi([]);
  sandbox = await makeSandbox({ apiUrl: api.url });
  const s = join(sandbox.project, "s.md");
  writeFileSync(s, "some summary\n");
  const r = await ctx(
    ["resume", s, "--", "-p", "--model", TEST_MODEL, "--output-format", "no-such-format"],
    { ...sandbox.env, CTX_CLAUDE: CLAUDE_BIN },
    sandbox.project,
  );
  expect(r.code).not.toBe(0);
  expect(api.mainRequests()).toHaveLength(0);
}, 60_000);

test("interactive: ctx resume s.md starts claude in the terminal with the summary as its first message", async () => {
  api = await startFakeApi([
    { content: [{ type: "text", text: "Resumed: on it." }], usage: { input_tokens: 900, output_tokens: 5 } },
  ]);
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { CTX_CLAUDE: CLAUDE_BIN } });
  const s = join(sandbox.project, "handoff.md");
  writeFileSync(s, "# Handoff\n- [ ] INTERACTIVE-MARK wire the CLI\n");
  // Run from a shell, as a person does, which records ctx's exit code.
  const exitFile = join(sandbox.tmp, "ctx-resume-exit");
  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [
      "sh",
      "-c",
      '"$0" "$@"; code=$?; echo "$code" > "$E2E_EXIT_FILE"; exit "$code"',
      CTX_BIN,
      "resume",
      s,
      "--",
      "--model",
      TEST_MODEL,
    ],
    env: { ...sandbox.env, E2E_EXIT_FILE: exitFile },
    cwd: sandbox.project,
  });
  await tmux.waitFor(/Resumed: on it\./, 30_000);
  const text = userText(api.mainRequests()[0]!);
  expect(count(text, MARK)).toBe(1);
  expect(text).toContain("INTERACTIVE-MARK wire the CLI");
  expect(await tmux.alive()).toBe(true);
  // Ctrl-C reaches claude, not ctx; ctx leaves with claude when it exits.
  await tmux.sendKeys("C-c");
  await Bun.sleep(300);
  expect(await tmux.alive()).toBe(true);
  await submit(tmux, "/exit", async () => !(await tmux!.alive()));
  // claude's exit code, through ctx. (Not tmux's pane_dead_status: with 2.1.328 the pane's process is
  // sometimes ended by a signal after ctx has exited 0, whoever runs in the pane: fixtures README.)
  expect(readFileSync(exitFile, "utf8").trim()).toBe("0");
}, 60_000);

const TRACK_EVENTS = ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "PreCompact", "SessionEnd"];

/** settings.json hooks: ctx track on every event, and ctx resume --hook on SessionStart. */
function resumeSettings(): object {
  const hooks: Record<string, object[]> = {};
  for (const e of TRACK_EVENTS) hooks[e] = hookEntry(`${CTX_BIN} track`, e.startsWith("PostToolUse") ? "*" : undefined);
  hooks.SessionStart = [
    {
      hooks: [
        { type: "command", command: `${CTX_BIN} track` },
        { type: "command", command: `${CTX_BIN} resume --hook` },
      ],
    },
  ];
  return { hooks };
}

async function waitUntil(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

test("interactive: /clear brings the finalized summary into the next request once; a second /clear does not", async () => {
  const turns: Turn[] = [
    // Session 1 climbs to 92 %: track turns auto-pause on, so /clear finalizes it.
    {
      content: [{ type: "text", text: "Parser half done; error recovery remains." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 183_900, output_tokens: 12 },
    },
    {
      content: [{ type: "text", text: "Picking up error recovery." }],
      usage: { input_tokens: 3000, output_tokens: 6 },
    },
    { content: [{ type: "text", text: "Nothing pending." }], usage: { input_tokens: 500, output_tokens: 4 } },
  ];
  api = await startFakeApi(turns);
  sandbox = await makeSandbox({ apiUrl: api.url, settings: resumeSettings(), extraEnv: { CTX_TASK_ID: "task-1091" } });
  const root = join(sandbox.project, ".ctx");
  const sessions = join(root, "sessions");
  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL],
    env: sandbox.env,
    cwd: sandbox.project,
  });
  await tmux.waitFor(/^❯/m, 30_000);

  await submit(tmux, "PROMPT-ALPHA build the parser with error recovery", () => api!.mainRequests().length >= 1);
  await tmux.waitFor(/error recovery remains/, 30_000);
  const summaries = () =>
    existsSync(sessions) ? readdirSync(sessions).filter((n) => n.startsWith("summary-") && n.endsWith(".md")) : [];
  const states = join(root, "state", "sessions");
  const stopped = () =>
    existsSync(states) &&
    readdirSync(states).some(
      (n) => n.endsWith(".json") && JSON.parse(readFileSync(join(states, n), "utf8")).last_event === "Stop",
    );
  await waitUntil("the Stop hook", stopped);
  // Crossing the levels on a reply without a tool call, track starts the summary itself (no monitor ran);
  // the /clear below refreshes that same file (one name per session).
  expect(summaries().length).toBeLessThanOrEqual(1);
  expect(count(userText(api.mainRequests()[0]!), MARK)).toBe(0);

  const sessionStarts = () => (existsSync(states) ? readdirSync(states).filter((n) => n.endsWith(".json")).length : 0);
  await submit(tmux, "/clear", () => sessionStarts() >= 2);
  await waitUntil("the summary", () => summaries().length === 1);
  await Bun.sleep(300);
  await submit(tmux, "continue", () => api!.mainRequests().length >= 2);
  const second = userText(api.mainRequests()[1]!);
  // On a failure, what the hooks left behind: which sessions, linked how, which summary was consumed.
  if (count(second, MARK) !== 1)
    for (const f of [...readdirSync(states).map((n) => join(states, n)), join(root, "state", "resume-ledger.json")])
      console.error(`${f}:`, existsSync(f) ? readFileSync(f, "utf8").slice(0, 800) : "(none)");
  expect(count(second, MARK)).toBe(1);
  expect(second).toContain("SessionStart hook additional context: The context was just cleared");
  expect(second).toContain("PROMPT-ALPHA build the parser");
  expect(second).toContain(join(sessions, summaries()[0]!));
  expect(count(allText(api.mainRequests()[1]!), MARK)).toBe(1);

  await submit(tmux, "/clear", () => sessionStarts() >= 3);
  await Bun.sleep(300);
  await submit(tmux, "anything left?", () => api!.mainRequests().length >= 3);
  expect(count(allText(api.mainRequests()[2]!), MARK)).toBe(0);
  expect(summaries()).toHaveLength(1);
  const ledger = JSON.parse(readFileSync(join(root, "state", "resume-ledger.json"), "utf8"));
  expect(Object.values(ledger.consumed)).toEqual([expect.objectContaining({ via: "clear" })]);
}, 150_000);
