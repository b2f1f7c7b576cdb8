/**
 * Issue 20: a session written by an older client (2.1.39, claude-opus-4-6, 200k: it auto-compacted at
 * 167k) is judged against its own window when ctx runs as a hook of a current Claude Code, whose
 * default model has 1M. The transcripts are excerpts of real sessions: github.com/marot/spotter, MIT,
 * commit 8cc42b0bd39d04e71e509d7d58e6782ab435329f (test/fixtures/transcripts/spotter-window/README.md).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, type CtxRun } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { assistantLine } from "../helpers/transcript.ts";

const DIR = join(import.meta.dir, "..", "fixtures", "transcripts", "spotter-window");
const AUTO = join(DIR, "auto-compact-200k.jsonl");
const SWITCH = join(DIR, "model-switch-manual-compact.jsonl");
const SID = "258c7280-ae70-4798-800f-63464d01a85d";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
let claude: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
  // A hook call of a current client: Claude Code's variables, and a parent process named `claude`
  // (started without --model: its default is a 1M Opus), whose status line remembered 1M windows.
  // No context budget: these tests are about which window the levels measure (docs/budget.md).
  env = {
    ...env,
    CLAUDECODE: "1",
    CLAUDE_CODE_SESSION_ID: "0c8d5c1e-6a55-4c1b-9d1f-3f0e2b7a9c44",
    CTX_CONTEXT_BUDGET: "off",
  };
  claude = join(t.dir, "bin", "claude");
  mkdirSync(join(t.dir, "bin"));
  writeFileSync(claude, '#!/bin/sh\n"$@"\nexit $?\n'); // not exec: it stays the hook's parent
  chmodSync(claude, 0o755);
  const windows = join(env.XDG_STATE_HOME!, "ctx", "windows.json");
  mkdirSync(join(env.XDG_STATE_HOME!, "ctx"), { recursive: true });
  writeFileSync(windows, JSON.stringify({ "claude-opus-4-8[1m]": 1_000_000, "claude-opus-4-6[1m]": 1_000_000 }));
});
afterEach(() => t.cleanup());

/** Runs ctx as a child of the fake client. */
async function underClient(args: string[], stdin?: string, extra: Record<string, string> = {}): Promise<CtxRun> {
  const proc = Bun.spawn([claude, CTX_BIN, ...args], {
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...env, ...extra },
    cwd: project,
    timeout: 20_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** The excerpt up to the request at the peak (166,759 tokens), before the client compacted. */
function atPeak(): string {
  const lines = readFileSync(AUTO, "utf8").split("\n");
  const cut = lines.findIndex((l) => l.includes('"subtype":"compact_boundary"'));
  expect(cut).toBeGreaterThan(0);
  const path = join(t.dir, `${SID}.jsonl`);
  writeFileSync(path, `${lines.slice(0, cut).join("\n")}\n`);
  return path;
}

const hook = (transcript: string, event = "PostToolUse") =>
  JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: event,
    tool_name: "Bash",
    tool_input: { command: "mix test" },
    tool_response: { stdout: "" },
  });

describe("the window of a 2.1.39 session under a current client", () => {
  test("ctx finalize: 200k from the automatic compaction, peak 83 % (not 8 % of 1M, peak 17 %)", async () => {
    const r = await underClient(["finalize", "--session", SID, "--transcript", AUTO], undefined, { CTX_DEBUG: "1" });
    expect(r.code).toBe(0);
    const md = readFileSync(r.stdout.trim(), "utf8");
    expect(md).toContain("- Context at handoff: 39% used (77334 / 200000 tokens, peak 83%, 1 compaction: 1 auto)");
    expect(r.stderr).toContain("finalize: window 200000 (compaction)");
    // The client was found and had no model chosen: its 1M default was there to be taken.
    const cache = JSON.parse(readFileSync(join(project, ".ctx", "state", "window", `${SID}.json`), "utf8"));
    expect(cache.choice).toEqual({ found: true, model: null, source: null });
  });

  test("ctx finalize: without an automatic compaction the client version keeps the 1M default away", async () => {
    const r = await underClient(
      ["finalize", "--session", "ae4a77f8-aedd-4bc1-888f-c94edc91af04", "--transcript", SWITCH],
      undefined,
      { CTX_DEBUG: "1" },
    );
    expect(r.code).toBe(0);
    const md = readFileSync(r.stdout.trim(), "utf8");
    expect(md).toContain("- Context at handoff: 51% used (102168 / 200000 tokens, peak 71%, 1 compaction: 1 manual)");
    expect(r.stderr).toContain("finalize: window 200000 (model_name)");
  });

  test("ctx monitor and ctx track judge the peak against 200k, and ctx status shows it", async () => {
    const transcript = atPeak();
    // Warning and critical apart from 83 %, so the monitor warns without starting a finalize.
    const levels = { CTX_LEVELS_CRITICAL: "90", CTX_LEVELS_AUTO_PAUSE: "95" };
    const m = await underClient(["monitor"], hook(transcript), levels);
    expect(m.code).toBe(0);
    const context = JSON.parse(m.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toStartWith("CONTEXT WARNING");
    expect(context).toContain("83%");
    const tr = await underClient(["track"], hook(transcript), levels);
    expect(tr.code).toBe(0);
    const state = JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", `${SID}.json`), "utf8"));
    expect(state).toMatchObject({
      model: "claude-opus-4-6",
      used_tokens: 166_759,
      window_size: 200_000,
      context_window_source: "model_name",
      used_pct: 83,
    });
    const st = await underClient(["status", "--json", "--all"]);
    const row = JSON.parse(st.stdout).sessions.find((s: { session_id: string }) => s.session_id === SID);
    expect(row).toMatchObject({ window_size: 200_000, context_window_source: "model_name", used_pct: 83 });
  });
});

describe("a session that compacted by itself, under a client with the 1M default", () => {
  /**
   * The real excerpt as if a client with the 1M default (2.1.197) had written it (`version` rewritten:
   * a Pro plan's 200k, or CLAUDE_CODE_AUTO_COMPACT_WINDOW), then a request at 140k after the compaction.
   */
  function compactedOnNewClient(): string {
    const text = readFileSync(AUTO, "utf8").replaceAll('"version":"2.1.39"', '"version":"2.1.197"');
    const after = assistantLine(140_000, { version: "2.1.197", sessionId: SID }, "claude-opus-4-6");
    const path = join(t.dir, `${SID}.jsonl`);
    writeFileSync(path, `${text}${after}\n`);
    return path;
  }

  test("track remembers where it compacted; the monitor and track then judge against 200k", async () => {
    const transcript = compactedOnNewClient();
    // Before track has read the transcript, the tail shows a 2.1.197 session: the 1M its status line remembered.
    const before = await underClient(["monitor"], hook(transcript), { CTX_DEBUG: "1" });
    expect(before.stdout).toBe("");
    expect(before.stderr).toContain("14% used (transcript), window 1000000 (remembered)");
    expect((await underClient(["track"], hook(transcript))).code).toBe(0);
    const m = await underClient(["monitor"], hook(transcript), { CTX_DEBUG: "1" });
    expect(JSON.parse(m.stdout).hookSpecificOutput.additionalContext).toStartWith(
      "CONTEXT WARNING: 70% of the context window is used",
    );
    expect(m.stderr).toContain("window 200000 (compaction)");
    await underClient(["track"], hook(transcript));
    const state = JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", `${SID}.json`), "utf8"));
    expect(state).toMatchObject({ used_tokens: 140_000, window_size: 200_000, context_window_source: "compaction" });
  });
});
