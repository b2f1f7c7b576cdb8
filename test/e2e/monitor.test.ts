/**
 * `ctx monitor` and `ctx statusline` with the real Claude Code client against
 * the fake API: the warnings reach the model at the right turns, debounced,
 * in headless runs (no status line: usage from the transcript) and the status
 * line shows Claude Code's own percentage in an interactive session.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { CLAUDE_BIN, hookEntry, makeSandbox, runClaudeP, TEST_MODEL, type Sandbox } from "./claude.ts";
import { lastUserText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
  await tmux?.kill().catch(() => {});
  api?.stop();
  sandbox?.cleanup();
  tmux = api = sandbox = undefined;
});

/** A main turn that runs one Bash command with the given context size. */
function bashTurn(i: number, used: number): Turn {
  return {
    content: [{ type: "tool_use", name: "Bash", input: { command: `echo step-${i}` } }],
    usage: { input_tokens: 100, cache_read_input_tokens: used - 100, output_tokens: 20 },
  };
}

test("headless: warnings reach the next request at the right turns, debounced, then critical", async () => {
  // Context per main turn on a 200k window: 50 %, then 66-68 % (WARNING), then 76 % (CRITICAL).
  const used = [100_000, 132_000, 133_000, 134_000, 135_000, 135_500, 136_000, 152_000];
  const turns: Turn[] = used.map((u, i) => bashTurn(i, u));
  turns.push({
    content: [{ type: "text", text: "All done." }],
    usage: { input_tokens: 100, cache_read_input_tokens: 152_500 },
  });
  api = await startFakeApi(turns);
  sandbox = await makeSandbox({
    apiUrl: api.url,
    settings: { hooks: { PostToolUse: hookEntry(`${CTX_BIN} monitor`, "*") } },
  });
  const r = await runClaudeP(sandbox, "run the steps", { timeoutMs: 90_000 });
  expect(r.code).toBe(0);

  const main = api.mainRequests();
  expect(main).toHaveLength(turns.length);
  const said = main.map((req) => {
    const text = lastUserText(req);
    return text.includes("CONTEXT CRITICAL") ? "C" : text.includes("CONTEXT WARNING") ? "W" : "-";
  });
  // Request n carries the hook output of the tool use requested by turn n-1.
  // Turn 1 (66 %) warns at once; the repeat comes on the 5th tool use after it (turn 6);
  // turn 7 (76 %) escalates to critical at once.
  expect(said).toEqual(["-", "-", "W", "-", "-", "-", "-", "W", "C"]);
  const warning = lastUserText(main[2]!);
  expect(warning).toContain(
    "PostToolUse:Bash hook additional context: CONTEXT WARNING: 66% of the context window is used, 34% remains",
  );
  expect(lastUserText(main[8]!)).toContain("CONTEXT CRITICAL: 76% of the context window is used, 24% remains");
}, 120_000);

test("interactive: the status line shows Claude Code's own percentage and writes the bridge", async () => {
  api = await startFakeApi([
    {
      content: [{ type: "text", text: "Hello there." }],
      usage: { input_tokens: 50, cache_creation_input_tokens: 1000, cache_read_input_tokens: 129_000 },
    },
  ]);
  sandbox = await makeSandbox({
    apiUrl: api.url,
    settings: {
      statusLine: { type: "command", command: `${CTX_BIN} statusline`, padding: 0 },
      hooks: { PostToolUse: hookEntry(`${CTX_BIN} monitor`, "*") },
    },
    extraEnv: { NO_COLOR: "1" },
  });
  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL],
    env: sandbox.env,
    cwd: sandbox.project,
  });
  await tmux.waitFor(/for shortcuts|❯/, 30_000);
  await tmux.sendText("say hello");
  // 130,050 tokens of 200,000: Claude Code's used_percentage is 65.
  const screen = await tmux.waitFor(/███████░░░ 65% 130k\/200k/, 30_000);
  expect(screen).toContain("│ project │");
  const bridges = new Bun.Glob("claude-ctx-*.json").scanSync(sandbox.tmp);
  const files = [...bridges];
  expect(files).toHaveLength(1);
  const bridge = JSON.parse(readFileSync(join(sandbox.tmp, files[0]!), "utf8"));
  expect(bridge).toMatchObject({
    used_pct: 65,
    remaining_percentage: 35,
    used_tokens: 130_050,
    context_window_size: 200_000,
  });
  expect(bridge.model).toContain("sonnet");
}, 90_000);
