/**
 * Issue 24: the CRITICAL message the user sees says what to do. The real Claude Code client in tmux
 * (fake API, ctx installed by `ctx install`) crosses CRITICAL on a tool call; the client shows
 * `ctx track`'s systemMessage under it, with where the handoff stands and the instruction: type
 * /clear once the agent has finished its step (the fresh session starts from the summary), or
 * `ctx resume <the summary's path>`.
 */
import { afterEach, expect, test } from "bun:test";
import { runCtx } from "../helpers/ctx.ts";
import { CLAUDE_BIN, makeSandbox, TEST_MODEL, type Sandbox } from "./claude.ts";
import { startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
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

const bash = (command: string, tokens: number): Turn => ({
  content: [{ type: "tool_use", name: "Bash", input: { command, description: "step" } }],
  usage: { input_tokens: 100, cache_read_input_tokens: tokens - 100, output_tokens: 20 },
});

/** The screen with the client's line wrapping undone: each wrapped line's indentation joined back with one space. */
const unwrapped = (screen: string): string => screen.replace(/\n\s+/g, " ");

test("e2e: the user's CRITICAL message says to type /clear (or ctx resume)", async () => {
  api = await startFakeApi([
    bash("echo one", 120_000),
    bash("echo two", 152_000), // 76 %: CRITICAL on this call's hooks
    bash("echo three", 152_200),
    {
      content: [{ type: "text", text: "Stopping here." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 152_300 },
    },
  ]);
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL, "--allowedTools", "Bash"],
    env: sandbox.env,
    cwd: sandbox.project,
    height: 60,
  });
  await tmux.waitFor(/for shortcuts|❯/, 30_000);
  await tmux.sendText("run the steps");
  const screen = unwrapped(await tmux.waitFor((s) => unwrapped(s).includes("(or quit and run 'ctx resume "), 60_000));
  // the exact summary, named while it is being written: the command resumes this session's work
  const m =
    /says: ctx: context 76% used \(15\dk\/200k tokens\), CRITICAL\. The agent is told to finish its step and leave the work resumable\. Handoff: (?:ctx finalize is writing the handoff summary now \((\S+)\)|the handoff summary is written: (\S+))\. You: when the agent has finished its step, type \/clear; the fresh session starts from the summary \(or quit and run 'ctx resume (\S+)'\)\./.exec(
      screen,
    );
  expect(m).not.toBeNull();
  expect(m![3]).toBe(m![1] ?? m![2]);
  expect(m![3]).toMatch(/\/\.ctx\/sessions\/summary-\S+-\d{8}-\d{6}\.md$/);
}, 120_000);
