/**
 * The real Gemini CLI 0.61.0, headless (`gemini -p … --yolo -o json -m gemini-2.5-flash`), in an
 * isolated HOME wired by `ctx install --gemini`, against the fake Gemini API: `ctx monitor` on
 * AfterTool, `ctx track` (state from the chat log, levels, auto-pause capture, PreCompress on
 * every turn), the SessionEnd finalize's summary, `ctx resume --hook` on SessionStart and
 * `ctx doctor --gemini`.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import {
  functionResponses,
  lastFunctionResponse,
  requestText,
  startFakeGemini,
  type FakeGemini,
  type GeminiTurn,
} from "./fake-gemini.ts";
import { chatLogs, GEMINI_WINDOW, jsonl, makeGeminiSandbox, runGeminiP, type GeminiSandbox } from "./gemini.ts";

let api: FakeGemini | undefined;
let sb: GeminiSandbox | undefined;
afterEach(async () => {
  await api?.stop();
  sb?.cleanup();
  api = sb = undefined;
});

const pct = (p: number) => Math.round((GEMINI_WINDOW * p) / 100);
const call = (name: string, args: Record<string, unknown>, promptTokens: number): GeminiTurn => ({
  parts: [{ functionCall: { name, args } }],
  promptTokens,
});
/** ctx on PATH, as a user who installed it has it. */
const withCtx = (s: GeminiSandbox) => ({ ...s.env, PATH: `${dirname(CTX_BIN)}:${s.env.PATH}` });
const waitFor = async (what: string, ok: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
};

test("gemini: install keeps the user's keys; monitor warns at 65 %/75 % of 1,048,576, debounced; track, pause capture and the SessionEnd summary", async () => {
  api = await startFakeGemini([]); // the script needs the project path: set below
  sb = makeGeminiSandbox(api.url);
  const notes = join(sb.project, "notes.md");
  const script: GeminiTurn[] = [
    call("run_shell_command", { command: "echo one", description: "one" }, pct(60)), // below 65 %: nothing
    call("write_file", { file_path: notes, content: "# Notes\nstatus: draft\n" }, pct(66)), // WARNING
    call(
      "replace",
      { file_path: notes, old_string: "status: draft", new_string: "status: done", instruction: "mark done" },
      pct(67),
    ), // WARNING again, but debounced
    call("run_shell_command", { command: "ls /nonexistent-ctx-gemini", description: "fails" }, pct(68)),
    call("run_shell_command", { command: "echo four", description: "four" }, pct(77)), // CRITICAL at once
    { parts: [{ text: "All done with the notes." }], promptTokens: pct(78) },
  ];
  await api.stop();
  api = await startFakeGemini(script);
  sb.env.GOOGLE_GEMINI_BASE_URL = api.url;
  const before = JSON.parse(readFileSync(sb.settingsPath, "utf8"));
  const env = withCtx(sb);

  const inst = await runCtx(["install", "--gemini"], { env, cwd: sb.project });
  expect(inst.code).toBe(0);
  const settings = JSON.parse(readFileSync(sb.settingsPath, "utf8"));
  const { hooks, ...rest } = settings;
  expect(rest).toEqual(before); // security.auth, folderTrust, privacy, … all kept
  expect(hooks.AfterTool[0].hooks[0].command).toBe(`${realpathSync(CTX_BIN)} monitor`);
  const doctor = await runCtx(["doctor", "--gemini"], { env, cwd: sb.project });
  expect(doctor.stdout).not.toContain("FAIL");
  expect(doctor.stdout).toContain("ok    Gemini CLI auth: gemini-api-key");

  // Auto-pause from 75 % on, so this session reaches it (the other levels keep their defaults).
  sb.env.CTX_TRACK_AUTO_PAUSE = "75";
  const r = await runGeminiP(sb, "Write the notes.", { timeoutMs: 90_000 });
  expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
  const reqs = api.streamRequests();
  expect(reqs).toHaveLength(6);
  // Request n carries, in the tool result of turn n-1, what ctx monitor said (as <hook_context>).
  const said = reqs.map((q) => {
    const text = lastFunctionResponse(q.body);
    return text.includes("CONTEXT CRITICAL") ? "C" : text.includes("CONTEXT WARNING") ? "W" : "-";
  });
  expect(said).toEqual(["-", "-", "W", "-", "-", "C"]);
  const warned = lastFunctionResponse(reqs[2]!.body);
  expect(warned).toContain("<hook_context>CONTEXT WARNING: 66% of the context window is used, 34% remains.");
  expect(lastFunctionResponse(reqs[5]!.body)).toContain("CONTEXT CRITICAL: 77% of the context window is used");
  expect(readFileSync(notes, "utf8")).toContain("status: done"); // write_file and replace really ran

  // track: the state follows the chat log's tokens records.
  const sid = r.json.session_id as string;
  const root = join(sb.project, ".ctx");
  const state = JSON.parse(readFileSync(join(root, "state", "sessions", `${sid}.json`), "utf8"));
  expect(state.transcript_path).toBe(chatLogs(sb)[0]);
  expect(state).toMatchObject({ model: "gemini-2.5-flash", window_size: GEMINI_WINDOW, used_tokens: pct(78) });
  expect(state.used_pct).toBe(78);
  expect(state.tool_calls).toBe(5);
  expect(state.threshold_reached).toBe("auto_pause");
  expect(state.models["gemini-2.5-flash"]).toMatchObject({
    requests: 6,
    input_tokens: script.reduce((n, t) => n + t.promptTokens!, 0),
  });
  // PreCompress fired before each of the 6 requests; nothing was compressed, so nothing is recorded.
  expect(state.compactions).toBe(0);
  expect(existsSync(join(root, "events")) ? readdirSync(join(root, "events")) : []).toEqual([]);

  // Auto-pause captured the Gemini tool call that crossed 75 % and the final response; SessionEnd
  // (track.finalize_on_end: pause) finalized: the summary lists the changed file and the failed command.
  const sessions = join(root, "sessions");
  const summaryName = () =>
    existsSync(sessions) ? readdirSync(sessions).find((n) => n.startsWith("summary-") && n.endsWith(".md")) : undefined;
  // The crossing already wrote the summary (the monitor or track, at CRITICAL): wait for SessionEnd's own record.
  const endedRecord = () => {
    try {
      const name = readFileSync(join(sessions, "LATEST-SESSION.txt"), "utf8").trim();
      return JSON.parse(readFileSync(join(sessions, name), "utf8")).reason === "session_end";
    } catch {
      return false;
    }
  };
  await waitFor("the SessionEnd finalize", () => summaryName() !== undefined && endedRecord());
  const incremental = readdirSync(sessions).find((n) => n.endsWith("-incremental.jsonl"))!;
  const captured = jsonl(join(sessions, incremental)).map((e) => `${e.type}:${e.data.tool ?? ""}`);
  expect(captured).toEqual(["pause_started:", "tool_call:run_shell_command", "assistant_response:"]);
  const summary = readFileSync(join(sessions, summaryName()!), "utf8");
  expect(summary).toContain("## Goal\n> Write the notes.");
  expect(summary).toContain("- `notes.md` (write_file, replace; this session)"); // relative to the project
  // A failed `ls` is a lookup: counted and shown as FAIL, never an open error.
  expect(summary).toContain("## Unresolved errors\n- (none)");
  expect(summary).toContain("- FAIL `ls /nonexistent-ctx-gemini`");
  expect(summary).toContain("- ok   `echo four`");
  expect(summary).toContain("5 tool calls: 4 succeeded, 1 failed; 1 file changed; 3 commands; 1 user message");
  expect(summary).toContain("## Decisions and reasons (the agent's last messages)\n- All done with the notes.");
  expect(summary).toContain("## Last meaningful step\n- replace notes.md (this session)");
}, 150_000);

test("gemini: PreCompress fires every turn, one compression is recorded when the history shrank; the SessionStart hint reaches the first prompt", async () => {
  const sh = (command: string) => ({
    functionCall: { name: "run_shell_command", args: { command, description: command } },
  });
  api = await startFakeGemini((req) => {
    const text = requestText(req.body);
    // After the client compressed its history, the request is small again.
    if (text.includes("FAKE-SNAPSHOT"))
      return { parts: [{ text: "Continued after compression." }], promptTokens: pct(19) };
    if (text.includes("Continue the work."))
      return functionResponses(req.body) === 0
        ? { parts: [sh("echo again")], promptTokens: 960_000 }
        : { parts: [{ text: "Done again." }], promptTokens: 965_000 };
    return { parts: [{ text: "First part done." }], promptTokens: 940_000 };
  });
  sb = makeGeminiSandbox(api.url);
  const env = withCtx(sb);
  expect((await runCtx(["install", "--gemini"], { env, cwd: sb.project })).code).toBe(0);
  const root = join(sb.project, ".ctx");
  const sessions = join(root, "sessions");
  const summaries = () =>
    existsSync(sessions) ? readdirSync(sessions).filter((n) => n.startsWith("summary-") && n.endsWith(".md")) : [];

  // Run 1 ends at 90 % (auto-pause): its SessionEnd finalizes it. PreCompress fired, nothing was compressed.
  const r1 = await runGeminiP(sb, "Start the work.", { timeoutMs: 90_000 });
  expect(r1.code).toBe(0);
  await waitFor("the SessionEnd finalize", () => summaries().length === 1);
  const sid = r1.json.session_id as string;
  const statePath = join(root, "state", "sessions", `${sid}.json`);
  const events = () => (existsSync(join(root, "events")) ? readdirSync(join(root, "events")) : []);
  expect(events()).toEqual([]);
  const finalizedAfterRun1 = JSON.parse(readFileSync(statePath, "utf8")).finalized_at;

  // Run 2 resumes it: SessionStart's hint leads the first prompt. Gemini CLI then compresses its
  // history (above half of its window, with two user turns to split): two summarizer calls.
  const r2 = await runGeminiP(sb, "Continue the work.", { timeoutMs: 90_000, args: ["-r", "latest"] });
  expect(r2.code).toBe(0);
  const streams = api.streamRequests();
  const first = requestText(streams[1]!.body);
  expect(first).toContain(
    `<hook_context>ctx: an unconsumed handoff summary from a previous session exists (${summaries()[0]}`,
  );
  expect(first).toContain("</hook_context>\n\nContinue the work.");
  expect(api.requests.filter((q) => q.kind === "generate")).toHaveLength(2);
  expect(requestText(streams.at(-1)!.body)).toContain("FAKE-SNAPSHOT");

  // Exactly one compression, with the usage before and after it, though PreCompress fired before
  // every request of both runs; the finalize it started (paused at 91 %) ran once.
  expect(events()).toHaveLength(1);
  const event = JSON.parse(readFileSync(join(root, "events", events()[0]!), "utf8"));
  expect(event).toMatchObject({ session_id: sid, trigger: "auto", tokens_before: 960_000, tokens_after: pct(19) });
  await waitFor("the compression's finalize", () => {
    const s = JSON.parse(readFileSync(statePath, "utf8"));
    return s.finalized_at !== finalizedAfterRun1;
  });
  const state = JSON.parse(readFileSync(statePath, "utf8"));
  expect(state).toMatchObject({ compactions: 1, pending_compress: null, auto_pause_active: false, used_pct: 19 });
  expect(summaries()).toHaveLength(1); // a finalize of the same session rewrites its summary
  const pauseLog = readdirSync(sessions).find((n) => n.endsWith("-incremental.jsonl"))!;
  const compactions = jsonl(join(sessions, pauseLog)).filter((e) => e.type === "compaction");
  expect(compactions.map((e) => e.data)).toEqual([{ tokens_before: 960_000, tokens_after: pct(19), trigger: "auto" }]);
}, 180_000);
