/**
 * Records the Gemini CLI fixtures in test/fixtures/gemini/ from the real client
 * (`@google/gemini-cli` 0.61.0) against the fake Gemini API: one headless session
 * (run_shell_command, write_file, replace, a failing command, a final answer) with every
 * hook's stdin recorded. Sandbox paths become /tmp/ctx-fixture. Run:
 *
 *     ./node_modules/.bin/bun test/e2e/record-gemini-fixtures.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeGemini, type GeminiTurn } from "./fake-gemini.ts";
import { chatLogs, makeGeminiSandbox, runGeminiP, userGeminiSettings } from "./gemini.ts";

const OUT = join(import.meta.dir, "..", "fixtures", "gemini");
const EVENTS = ["SessionStart", "BeforeAgent", "PreCompress", "AfterTool", "AfterAgent", "SessionEnd"];

const api = await startFakeGemini([]);
const sb = makeGeminiSandbox(api.url);
await api.stop();
const file = "/tmp/ctx-fixture/project/notes.md".replace("/tmp/ctx-fixture", sb.root);
const call = (name: string, args: Record<string, unknown>, promptTokens: number): GeminiTurn => ({
  parts: [{ functionCall: { name, args } }],
  promptTokens,
});
const real = await startFakeGemini([
  call("run_shell_command", { command: "echo one", description: "Say one" }, 8000),
  call("write_file", { file_path: file, content: "# Notes\nstatus: draft\n" }, 9500),
  call(
    "replace",
    { file_path: file, old_string: "status: draft", new_string: "status: done", instruction: "mark done" },
    11000,
  ),
  call("run_shell_command", { command: "ls /nonexistent-ctx-fixture", description: "Fails" }, 12500),
  { parts: [{ text: "Notes written; the listing failed." }], promptTokens: 14000 },
]);
sb.env.GOOGLE_GEMINI_BASE_URL = real.url;
const rec = join(sb.root, "hooks.jsonl");
const settings: Record<string, any> = { ...userGeminiSettings(), hooks: {} };
for (const e of EVENTS)
  settings.hooks[e] = [{ hooks: [{ type: "command", command: `sh -c 'cat >> ${rec}; echo >> ${rec}'` }] }];
writeFileSync(sb.settingsPath, JSON.stringify(settings, null, 2));
try {
  const r = await runGeminiP(sb, "Write the notes.", { timeoutMs: 90_000 });
  if (r.code !== 0) throw new Error(`gemini failed (${r.code}): ${r.stderr}`);
  const clean = (text: string) => text.replaceAll(sb.root, "/tmp/ctx-fixture");
  mkdirSync(join(OUT, "hooks"), { recursive: true });
  writeFileSync(join(OUT, "chat-tools-session.jsonl"), clean(readFileSync(chatLogs(sb)[0]!, "utf8")));
  const seen = new Set<string>();
  for (const line of readFileSync(rec, "utf8")
    .split("\n")
    .filter((l) => l.trim())) {
    const hook = JSON.parse(line);
    const name = hook.hook_event_name === "AfterTool" ? `AfterTool-${hook.tool_name}` : hook.hook_event_name;
    if (seen.has(name)) continue;
    seen.add(name);
    writeFileSync(join(OUT, "hooks", `${name}.json`), `${clean(JSON.stringify(hook, null, 2))}\n`);
  }
  writeFileSync(join(OUT, "headless-result.json"), `${clean(JSON.stringify(r.json, null, 2))}\n`);
  console.log(`recorded ${[...seen].join(", ")}`);
} finally {
  await real.stop();
  sb.cleanup();
}
