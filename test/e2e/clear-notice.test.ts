/**
 * Issue 29: after /clear the user sees one line naming the summary the fresh session got and its chain
 * (the SessionStart hook's systemMessage), and the status line shows `↻ 2` until the first reply.
 */
import { afterEach, expect, test } from "bun:test";
import { runCtx } from "../helpers/ctx.ts";
import { CLAUDE_BIN, CLIENT, makeSandbox, type Sandbox } from "./claude.ts";
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

/** The screen with the client's line wrapping undone. */
const unwrapped = (screen: string): string => screen.replace(/\n\s+/g, " ");

test(`e2e (${CLIENT.version}): after /clear one line names the summary and its chain; the status line shows ↻ 2`, async () => {
  api = await startFakeApi([
    bash("echo one", 100_000),
    bash("echo two", 152_000), // CRITICAL under the default 200k budget: the summary is written
    {
      content: [{ type: "text", text: "Step saved." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 152_300 },
    },
  ]);
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, "--allowedTools", "Bash"],
    env: sandbox.env,
    cwd: sandbox.project,
    height: 60,
  });
  await tmux.waitFor(/for shortcuts|❯/, 30_000);
  await tmux.sendText("Write the quarterly report");
  await tmux.waitFor((s) => s.includes("Step saved."), 90_000);
  await tmux.sendText("/clear");
  const screen = unwrapped(await tmux.waitFor((s) => unwrapped(s).includes("this session continues chain"), 60_000));
  expect(screen).toMatch(
    /ctx: ↻ 2 · this session continues chain (chain-[0-9a-f]{8}) from summary-\1-\d{8}-\d{6}\.md \(its summary is in the agent's context\)\. Press Enter/,
  );
  // the status line says it is a continued session until the first reply
  const line = await tmux.waitFor((s) => /│ ↻ 2 │/.test(s), 30_000);
  expect(line).toContain("↻ 2");
  console.log(`client ${CLIENT.version}: ${screen.match(/ctx: ↻ 2[^\n]*?Press Enter/)?.[0]}`);
}, 180_000);
