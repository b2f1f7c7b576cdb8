/**
 * Issue 29: a context budget on a 1M window. The real client without `--model` runs a 1,000,000-token
 * window (2.1.332: claude-opus-5-5 behind a custom base URL); `ctx install --budget 200k` sets the budget.
 * WARNING comes at 130k tokens and CRITICAL at 150k (not 650k / 750k), the agent and the user read the
 * budget in the texts, and the handoff summary written at CRITICAL names it.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLAUDE_BIN, CLIENT, makeSandbox, type Sandbox } from "./claude.ts";
import { allText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
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

test(`e2e budget (${CLIENT.version}, 1M window): --budget 200k warns at 130k and goes CRITICAL at 150k`, async () => {
  api = await startFakeApi([
    bash("echo one", 129_000), // 64.5 % of the budget: nothing
    bash("echo two", 130_000), // 65 %: WARNING
    bash("echo three", 150_000), // 75 %: CRITICAL, the summary
    bash("echo four", 150_200),
    {
      content: [{ type: "text", text: "Stopping here." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 150_300 },
    },
  ]);
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  const install = await runCtx(["install", "--budget", "200k"], { env: sandbox.env, cwd: sandbox.project });
  expect(install.code).toBe(0);
  expect(install.stdout).toContain("context.budget=200000");
  tmux = await startTmux({
    dir: sandbox.tmp,
    // no --model: the client's default, a 1M window
    command: [CLAUDE_BIN, "--allowedTools", "Bash"],
    env: sandbox.env,
    cwd: sandbox.project,
    height: 70,
  });
  await tmux.waitFor(/for shortcuts|❯/, 30_000);
  await tmux.sendText("run the steps");
  // the CRITICAL message ends with the resume command (the exact summary since the first-week round); the
  // last reply on screen means every request has reached the fake API (the hook's line shows before the next)
  const screen = unwrapped(
    await tmux.waitFor(
      (s) => /ctx resume [^\s]*summary-|ctx resume --latest/.test(unwrapped(s)) && s.includes("Stopping here."),
      90_000,
    ),
  );
  // the user's lines: the level, its share of the budget and the window
  expect(screen).toContain("ctx: context 65% of 200k budget · 1M window used (130k/1M tokens), WARNING.");
  expect(screen).toContain("ctx: context 75% of 200k budget · 1M window used (150k/1M tokens), CRITICAL.");
  // the agent's: WARNING after the call at 130k, CRITICAL after the one at 150k, none after 129k
  const main = api.mainRequests();
  const warnedAt = main.findIndex((r) =>
    allText(r).includes("CONTEXT WARNING: 65% of the 200k context budget is used (1M window)"),
  );
  const criticalAt = main.findIndex((r) =>
    allText(r).includes("CONTEXT CRITICAL: 75% of the 200k context budget is used (1M window)"),
  );
  expect(warnedAt).toBe(2);
  expect(criticalAt).toBe(3);
  // the window really is 1M: the client's own request and the state say so
  const root = join(sandbox.project, ".ctx");
  const states = readdirSync(join(root, "state", "sessions")).filter((n) => n.endsWith(".json"));
  const state = JSON.parse(readFileSync(join(root, "state", "sessions", states[0]!), "utf8"));
  expect(state.window_size).toBe(1_000_000);
  // the summary written at CRITICAL names the budget
  const sessions = join(root, "sessions");
  let md = "";
  for (let i = 0; i < 200 && !md; i++) {
    const name = existsSync(sessions) ? readdirSync(sessions).find((n) => /^summary-.*\.md$/.test(n)) : undefined;
    if (name) md = readFileSync(join(sessions, name), "utf8");
    else await Bun.sleep(100);
  }
  expect(md).toMatch(/Context at handoff: 15% used \(150\d{3} \/ 1000000 tokens.*\), 75% of 200k budget · 1M window/);
  console.log(`client ${CLIENT.version}: ${md.split("\n").find((l) => l.includes("Context at handoff"))}`);
}, 150_000);
