/** Smoke tests proving the e2e harness drives the real Claude Code client. */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeApi, lastUserText, lastToolResults, type FakeApi } from "./fake-api.ts";
import { makeSandbox, runClaudeP, findTranscripts, readJsonl, CLAUDE_BIN, TEST_MODEL, type Sandbox } from "./claude.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sb: Sandbox | undefined;
let tmux: TmuxSession | undefined;

afterEach(async () => {
  await tmux?.kill();
  await api?.stop();
  sb?.cleanup();
  tmux = undefined;
  api = undefined;
  sb = undefined;
});

test("headless: tool_use Bash round-trips through the fake API", async () => {
  api = await startFakeApi([
    {
      content: [{ type: "tool_use", name: "Bash", input: { command: "echo hello-e2e", description: "echo" } }],
      usage: { input_tokens: 1000 },
    },
    { content: [{ type: "text", text: "All good" }], usage: { input_tokens: 2000 } },
  ]);
  sb = await makeSandbox({ apiUrl: api.url });
  const r = await runClaudeP(sb, "run the echo");
  expect(r.code).toBe(0);
  expect(r.json?.result).toBe("All good");
  const mains = api.mainRequests();
  expect(mains.length).toBe(2);
  expect(mains[0]!.path).toStartWith("/v1/messages");
  const results = lastToolResults(mains[1]!);
  expect(results.length).toBe(1);
  expect(results[0]!.text).toContain("hello-e2e");
  expect(lastUserText(mains[1]!)).toContain("hello-e2e");
  const transcripts = findTranscripts(sb);
  expect(transcripts.length).toBe(1);
  expect(transcripts[0]).toContain(r.json.session_id);
  const lines = await readJsonl(transcripts[0]!);
  expect(lines.some((l) => l.type === "assistant" && l.message?.usage?.input_tokens === 2000)).toBe(true);
}, 60_000);

test("hooks: PostToolUse additionalContext reaches the next request", async () => {
  api = await startFakeApi([
    { content: [{ type: "tool_use", name: "Bash", input: { command: "echo hooked" } }] },
    { content: [{ type: "text", text: "fine" }] },
  ]);
  const out = JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "MARKER-123" } });
  sb = await makeSandbox({
    apiUrl: api.url,
    settings: { hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `echo '${out}'` }] }] } },
  });
  const r = await runClaudeP(sb, "go");
  expect(r.code).toBe(0);
  const mains = api.mainRequests();
  expect(mains.length).toBe(2);
  const text = lastUserText(mains[1]!);
  expect(text).toContain("MARKER-123");
  expect(text).toMatch(/<system-reminder>[\s\S]*PostToolUse:Bash hook additional context: MARKER-123/);
  expect(lastUserText(mains[0]!)).not.toContain("MARKER-123");
}, 60_000);

test("interactive: statusLine in tmux shows SL-OK and gets the scripted usage", async () => {
  const usage = { input_tokens: 50, cache_creation_input_tokens: 1000, cache_read_input_tokens: 30000 };
  api = await startFakeApi([{ content: [{ type: "text", text: "Hello from fake" }], usage }]);
  sb = await makeSandbox({ apiUrl: api.url });
  const rec = join(sb.tmp, "sl.jsonl");
  await Bun.write(
    join(sb.home, ".claude", "settings.json"),
    JSON.stringify({
      statusLine: { type: "command", command: `sh -c 'cat >> ${rec}; echo >> ${rec}; echo SL-OK'` },
    }),
  );
  tmux = await startTmux({
    dir: sb.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL],
    env: sb.env,
    cwd: sb.project,
    width: 200,
    height: 50,
  });
  await tmux.waitFor(/^❯/m, 30_000);
  await tmux.sendText("hello there");
  await tmux.waitFor(/Hello from fake/, 30_000);
  // The status line is re-run (debounced ~300 ms) after the reply's usage arrives.
  const expected = Math.round(((50 + 1000 + 30000) / 200000) * 100);
  let last: any;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const lines = existsSync(rec)
      ? readFileSync(rec, "utf8")
          .split("\n")
          .filter((l) => l.trim())
      : [];
    last = lines.length ? JSON.parse(lines[lines.length - 1]!) : undefined;
    if (last?.context_window?.used_percentage != null) break;
    await Bun.sleep(200);
  }
  expect(last?.context_window?.used_percentage).toBe(expected);
  expect(last?.context_window?.context_window_size).toBe(200000);
  expect(last?.model?.id).toBe(TEST_MODEL);
  const screen = await tmux.waitFor(/SL-OK/, 10_000);
  const rows = screen.split("\n");
  const promptRow = rows.findLastIndex((l) => l.startsWith("❯"));
  expect(rows.slice(promptRow + 1).some((l) => l.trim() === "SL-OK")).toBe(true);
}, 60_000);
