import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
});
afterEach(() => t.cleanup());

const root = () => join(project, ".ctx");
const readJson = (p: string) => JSON.parse(readFileSync(p, "utf8"));
const state = (sid = "s1") => readJson(join(root(), "state", "sessions", `${sid}.json`));
function hook(event: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({ session_id: "s1", transcript_path: FIXTURE, cwd: project, hook_event_name: event, ...over });
}
async function track(input: string, extra: Record<string, string> = {}) {
  const r = await runCtx(["track"], { stdin: input, env: { ...env, ...extra } });
  expect(r.code).toBe(0);
  return r;
}

describe("ctx track: one chain, one task id", () => {
  test("a session ctx resume started continues the resumed one's chain; a plain startup starts its own", async () => {
    await track(hook("SessionStart", { source: "startup" }), { CLAUDE_CODE_TASK_LIST_ID: "chain-first" });
    expect(state()).toMatchObject({ task_id: "chain-s1", task_list_id: "chain-first", previous_session_id: null });
    await track(hook("SessionStart", { session_id: "s2", source: "startup" }), { CTX_RESUMED_FROM: "s1" });
    expect(state("s2")).toMatchObject({ task_id: "chain-s1", previous_session_id: "s1" });
    expect(state().next_session_id).toBe("s2");
    // Unknown or unsafe predecessors are ignored; CTX_TASK_ID names a new chain.
    await track(hook("SessionStart", { session_id: "s3", source: "startup" }), { CTX_RESUMED_FROM: "nope" });
    expect(state("s3")).toMatchObject({ task_id: "chain-s3", previous_session_id: null });
    await track(hook("SessionStart", { session_id: "s4", source: "startup" }), { CTX_TASK_ID: "T-9" });
    expect(state("s4").task_id).toBe("T-9");
  });
});

describe("ctx track: the terminal and what a continued session inherits", () => {
  test("the session records its tmux pane; the one it continues gives its model and window until the first reading", async () => {
    const pane = { TMUX: "/tmp/tmux-1/default,1,0", TMUX_PANE: "%4" };
    await track(hook("SessionStart", { source: "startup" }), pane);
    expect(state().terminal).toBe("tmux:%4");
    const first = join(root(), "state", "sessions", "s1.json");
    writeFileSync(
      first,
      JSON.stringify({
        ...state(),
        model: "claude-opus-5-5",
        window_size: 1_000_000,
        context_window_source: "statusline",
      }),
    );
    const none = join(project, "no-transcript-yet.jsonl");
    await track(hook("SessionStart", { session_id: "s2", source: "startup", transcript_path: none }), {
      ...pane,
      CTX_RESUMED_FROM: "s1",
    });
    expect(state("s2")).toMatchObject({
      terminal: "tmux:%4",
      model: "claude-opus-5-5",
      window_size: 1_000_000,
      context_window_source: "statusline",
    });
  });
});

describe("ctx track (hook)", () => {
  test("keeps the state, the latest copy, the index entry and the ledger from a recorded transcript", async () => {
    const r = await track(hook("SessionStart", { source: "startup" }), { CTX_TASK_ID: "T-7" });
    expect(JSON.parse(r.stdout).systemMessage).toContain("93% used (185k/200k tokens), AUTO-PAUSE");
    const s = state();
    expect(s).toMatchObject({
      version: 1,
      session_id: "s1",
      project,
      model: "claude-sonnet-4-5",
      window_size: 200000,
      used_tokens: 185000,
      used_pct: 93,
      threshold_reached: "auto_pause",
      auto_pause_active: true,
      task_id: "T-7",
      tool_calls: 0,
    });
    expect(s.models["claude-sonnet-4-5"]).toEqual({
      input_tokens: 338000,
      output_tokens: 80,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 30000,
      requests: 4,
    });
    expect(readJson(join(root(), "state", "context-usage.json")).session_id).toBe("s1");
    const index = readJson(join(env.XDG_STATE_HOME!, "ctx", "sessions", "s1.json"));
    expect(index).toMatchObject({
      version: 1,
      session_id: "s1",
      root: root(),
      state_path: join(root(), "state", "sessions", "s1.json"),
      used_pct: 93,
      auto_pause_active: true,
      respawn: null,
    });
    expect(readJson(join(root(), "token-ledger.json")).tasks["T-7"]).toMatchObject({
      input_tokens: 338000,
      requests: 4,
      sessions: ["s1"],
    });
    // Reported once: the next event says nothing; the ledger does not grow again.
    const again = await track(hook("Stop", { last_assistant_message: "All done." }));
    expect(again.stdout).toBe("");
    expect(readJson(join(root(), "token-ledger.json")).tasks["T-7"].requests).toBe(4);
    const log = readFileSync(join(root(), "sessions", "ACTIVE-PAUSE-s1.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log.map((e) => e.type)).toEqual(["pause_started", "assistant_response"]);
    expect(log[1]).toMatchObject({ session_id: "s1", data: { summary: "All done." }, context_percentage: 93 });
  });

  test("the plain mode takes usage as a flag or on stdin, and levels reset when usage drops", async () => {
    const plain = (usage: object, viaStdin = false) =>
      runCtx(
        viaStdin
          ? ["track", "--session", "bot1", "--model", "claude-sonnet-4-5"]
          : ["track", "--session", "bot1", "--usage", JSON.stringify(usage)],
        { stdin: viaStdin ? JSON.stringify(usage) : undefined, env, cwd: project },
      );
    expect(
      JSON.parse(
        (
          await plain({
            input_tokens: 100,
            cache_read_input_tokens: 141000,
            output_tokens: 50,
            model: "claude-sonnet-4-5",
          })
        ).stdout,
      ).systemMessage,
    ).toContain("71%");
    expect((await plain({ input_tokens: 100, cache_read_input_tokens: 142000 }, true)).stdout).toBe("");
    expect((await plain({ input_tokens: 20000 })).stdout).toBe("");
    expect(JSON.parse((await plain({ input_tokens: 150000 }, true)).stdout).systemMessage).toContain("CRITICAL");
    const s = state("bot1");
    expect(s).toMatchObject({
      used_tokens: 150000,
      used_pct: 75,
      peak_pct: 75,
      peak_tokens: 150000,
      threshold_reached: "critical",
      last_event: "usage",
    });
    // The call without a model counts for the model the session already has.
    expect(s.models["claude-sonnet-4-5"]).toMatchObject({
      requests: 4,
      input_tokens: 170200,
      cache_read_input_tokens: 283000,
      output_tokens: 50,
    });
    expect(s.models.unknown).toBeUndefined();
  });

  test("the plain mode takes a whole API response, and says what is wrong with a bad call (exit 2)", async () => {
    const response = {
      id: "msg_1",
      model: "claude-opus-4-8[1m]",
      usage: { input_tokens: 10, cache_read_input_tokens: 300_000, output_tokens: 5 },
    };
    const ok = await runCtx(["track", "--session", "bot2"], { stdin: JSON.stringify(response), env, cwd: project });
    expect(ok.code).toBe(0);
    expect(state("bot2")).toMatchObject({
      used_tokens: 300_010,
      window_size: 1_000_000,
      used_pct: 30,
      model: "claude-opus-4-8[1m]",
    });
    // the scripted mode says what is wrong and exits 2 (the hook mode, without arguments, always exits 0)
    for (const args of [
      ["--session", "bot2", "--usage", "notjson"],
      ["--session", "../x", "--usage", "{}"],
      ["--session", "bad id!", "--usage", "{}"],
      ["--session", "bot2", "--usage", "[1]"],
      ["--session", "bot2", "--bogus"],
      ["--session"],
      ["--usage", "{}"],
    ]) {
      const bad = await runCtx(["track", ...args], { env, cwd: project });
      expect({
        args,
        code: bad.code,
        said: bad.stderr.startsWith("ctx track: "),
        help: bad.stderr.endsWith("Run 'ctx track --help'.\n"),
      }).toEqual({ args, code: 2, said: true, help: true });
    }
    const hook = await runCtx(["track"], { env, cwd: project, stdin: "{not json" });
    expect({ code: hook.code, stdout: hook.stdout, stderr: hook.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("Stop waits for the client to write the turn's last message before reading usage", async () => {
    const tr = join(t.dir, "late.jsonl");
    const line = (id: string, n: number, text: string) =>
      JSON.stringify({
        type: "assistant",
        requestId: `r${id}`,
        message: {
          id,
          model: "claude-sonnet-4-5",
          usage: { input_tokens: n, output_tokens: 1 },
          content: [{ type: "text", text }],
        },
      });
    writeFileSync(tr, `${line("a", 20000, "Working on it.")}\n`);
    setTimeout(() => appendFileSync(tr, `${line("b", 120000, 'Finished: all "tests" pass.\nDetails follow.')}\n`), 100);
    await track(
      hook("Stop", { transcript_path: tr, last_assistant_message: 'Finished: all "tests" pass.\nDetails follow.' }),
    );
    expect(state()).toMatchObject({ used_tokens: 120000, used_pct: 60 });
  });

  test("a session with no reading yet: a tool hook waits for its request's line, so WARNING is not skipped", async () => {
    const tr = join(t.dir, "early.jsonl");
    const toolLine = (id: string, n: number, toolId: string) =>
      JSON.stringify({
        type: "assistant",
        requestId: `r${id}`,
        message: {
          id,
          model: "claude-sonnet-4-5",
          usage: { input_tokens: n, output_tokens: 1 },
          content: [{ type: "tool_use", id: toolId, name: "Bash", input: {} }],
        },
      });
    writeFileSync(tr, "");
    await track(hook("SessionStart", { source: "startup", transcript_path: tr })); // no usage yet: 0 tokens
    writeFileSync(tr, `${toolLine("a", 100000, "toolu_aaaa01")}\n`);
    // the client writes the request of the tool that just ran a little after its hook started (a second
    // later here, with the wait raised to match, so a slow start on a loaded machine still finds it missing)
    setTimeout(() => appendFileSync(tr, `${toolLine("b", 132000, "toolu_bbbb01")}\n`), 1000);
    const r = await runCtx(["track"], {
      stdin: hook("PostToolUse", { transcript_path: tr, tool_name: "Bash", tool_use_id: "toolu_bbbb01" }),
      env: { ...env, CTX_TRACK_TRANSCRIPT_WAIT_MS: "5000" },
      countWaits: true,
    });
    expect(r.waited!.sleptMs).toBeGreaterThan(0);
    expect(JSON.parse(r.stdout).systemMessage).toStartWith("ctx: context 66% used (132k/200k tokens), WARNING.");
    expect(state()).toMatchObject({ used_tokens: 132000, used_pct: 66 });
  });

  test("Gemini CLI's events count like Claude Code's: AfterTool is a tool call, AfterAgent a Stop", async () => {
    await track(
      hook("AfterTool", {
        tool_name: "run_shell_command",
        tool_input: { command: "ls" },
        tool_response: { llmContent: "" },
      }),
    );
    await track(hook("AfterTool", { tool_name: "write_file", tool_input: { file_path: "/a" } }));
    await track(hook("AfterAgent", { prompt_response: "All done." }));
    expect(state()).toMatchObject({ tool_calls: 2, last_event: "Stop" });
    expect(state().last_stop_at).toBeString();
  });

  test("PreCompact writes an event whose tokens_after the next usage fills in", async () => {
    const tr = join(t.dir, "c.jsonl");
    const line = (id: string, n: number) =>
      JSON.stringify({
        type: "assistant",
        requestId: `r${id}`,
        message: { id, model: "claude-sonnet-4-5", usage: { input_tokens: n, output_tokens: 1 }, content: [] },
      });
    writeFileSync(tr, `${line("a", 150000)}\n`);
    await track(hook("PreCompact", { transcript_path: tr, trigger: "manual" }));
    const dir = join(root(), "events");
    const [name] = readdirSync(dir).filter((n) => n.endsWith(".json"));
    expect(name).toMatch(/^session-compressed-\d{8}-\d{6}-\d{3}\.json$/);
    expect(readJson(join(dir, name!))).toMatchObject({
      session_id: "s1",
      tokens_before: 150000,
      tokens_after: null,
      trigger: "manual",
    });
    writeFileSync(
      tr,
      `${line("a", 150000)}\n${JSON.stringify({ type: "system", subtype: "compact_boundary", compactMetadata: { preTokens: 150000, postTokens: 9000 } })}\n`,
    );
    await track(hook("SessionStart", { transcript_path: tr, source: "compact" }));
    expect(readJson(join(dir, name!))).toMatchObject({ tokens_before: 150000, tokens_after: 9000 });
    expect(state()).toMatchObject({ compactions: 1, used_tokens: 9000, pending_compaction: null });
  });

  test("/clear links the new session to the one the same claude process ran before", async () => {
    // A process named `claude` (a link to sh) runs the hooks under sh -c, as Claude Code does.
    const bin = join(t.dir, "bin");
    mkdirSync(bin);
    symlinkSync("/bin/sh", join(bin, "claude"));
    const inA = join(t.dir, "a.json");
    const inB = join(t.dir, "b.json");
    writeFileSync(inA, hook("SessionStart", { session_id: "old1", source: "startup" }));
    writeFileSync(inB, hook("SessionStart", { session_id: "new2", source: "clear" }));
    const script = `sh -c '${CTX_BIN} track < ${inA}'; sh -c '${CTX_BIN} track < ${inB}'; true`;
    const p = Bun.spawn([join(bin, "claude"), "-c", script], { env, stdout: "pipe", stderr: "pipe" });
    expect(await p.exited).toBe(0);
    const a = state("old1");
    const b = state("new2");
    expect(a.claude_pid).toBe(p.pid);
    expect(b).toMatchObject({ claude_pid: p.pid, previous_session_id: "old1" });
    expect(a.next_session_id).toBe("new2");
  });

  test("bad input, unsafe session ids and a read-only project exit 0 and write nothing (the level message still shows)", async () => {
    for (const input of ["", "not json", "[]", hook("PostToolUse", { session_id: "../../etc" })])
      expect((await track(input)).stdout).toBe("");
    expect(existsSync(join(root(), "state", "sessions"))).toBe(false);
    chmodSync(project, 0o500);
    const r = await runCtx(["track"], {
      stdin: hook("PostToolUse"),
      env: { ...env, CLAUDE_PROJECT_DIR: "/proc/nonexistent" },
    });
    // No state can be written there, but the level newly crossed still reaches the agent (issue 13, class 4).
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).systemMessage).toContain("AUTO-PAUSE");
    chmodSync(project, 0o700);
  });
});

describe("ctx track: tools run inside a subagent", () => {
  test("count in subagent_tool_calls, and never wait on the parent's transcript for their line", async () => {
    await track(hook("SessionStart", { source: "startup" })); // 93 %: near the levels, where tool hooks wait
    const sub = { agent_id: "ac32422becd6dd6c3", agent_type: "general-purpose", tool_name: "Bash" };
    const wait = { CTX_TRACK_TRANSCRIPT_WAIT_MS: "3000" };
    const r = await runCtx(["track"], {
      stdin: hook("PostToolUse", { ...sub, tool_use_id: "toolu_only_in_the_subagent_file" }),
      env: { ...env, ...wait },
      countWaits: true,
    });
    expect({ code: r.code, slept: r.waited!.sleptMs }).toEqual({ code: 0, slept: 0 }); // no wait for a line that never comes
    await track(hook("PostToolUseFailure", { ...sub, tool_use_id: "toolu_other_subagent_call" }), wait);
    await track(hook("PostToolUse", { tool_name: "Bash" }));
    expect(state()).toMatchObject({ tool_calls: 1, subagent_tool_calls: 2 });
  });
});
