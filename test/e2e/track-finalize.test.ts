/**
 * `ctx track` and `ctx finalize` with the real Claude Code client against the
 * fake API: a scripted session creates tasks, edits files, hits an error and
 * climbs past 90 %; the state, the action log, the finalized files and the
 * summary are checked.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { hookEntry, runClaudeP } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import type { Block, Turn } from "./fake-api.ts";

const rig = stopAfterEach();

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "PreCompact",
  "SessionEnd",
];

function turn(used: number, ...content: Block[]): Turn {
  return { content, usage: { input_tokens: 100, cache_read_input_tokens: used - 100, output_tokens: 30 } };
}

test("e2e: track follows a real session past auto-pause and SessionEnd finalizes it", async () => {
  let project = "";
  const script = (_req: unknown, i: number): Turn | undefined => {
    const p = (name: string) => join(project, name);
    const turns: Turn[] = [
      turn(20_000, {
        type: "tool_use",
        name: "TaskCreate",
        input: { subject: "Implement greeting", description: "greet.txt", activeForm: "Implementing" },
      }),
      turn(40_000, {
        type: "tool_use",
        name: "TaskCreate",
        input: { subject: "Write tests", description: "tests", activeForm: "Writing tests" },
      }),
      turn(60_000, { type: "tool_use", name: "Write", input: { file_path: p("greet.txt"), content: "hello\n" } }),
      turn(
        100_000,
        {
          type: "tool_use",
          name: "Edit",
          input: { file_path: p("greet.txt"), old_string: "hello", new_string: "hello world" },
        },
        { type: "tool_use", name: "TaskUpdate", input: { taskId: "1", status: "completed" } },
      ),
      turn(150_000, {
        type: "tool_use",
        name: "Bash",
        input: { command: "ls /nonexistent-dir-xyz", description: "look" },
      }),
      turn(172_000, { type: "tool_use", name: "Bash", input: { command: "echo checked", description: "check" } }),
      turn(182_000, { type: "tool_use", name: "Write", input: { file_path: p("notes.md"), content: "# notes\n" } }),
      turn(184_000, { type: "text", text: "Greeting done; the tests are still to write." }),
    ];
    return turns[i];
  };
  const api = await rig.api(script);
  const hooks: Record<string, object[]> = {};
  for (const e of EVENTS) hooks[e] = hookEntry(`${CTX_BIN} track`, e.startsWith("PostToolUse") ? "*" : undefined);
  const sandbox = await rig.sandbox({
    apiUrl: api.url,
    settings: { hooks },
    extraEnv: { CTX_TASK_ID: "task-1091", CTX_TEAM: "team-5" },
  });
  project = sandbox.project;
  const r = await runClaudeP(sandbox, "Implement the greeting, then write tests", { timeoutMs: 90_000 });
  expect(r.code).toBe(0);
  const sid: string = r.json.session_id;
  const root = join(project, ".ctx");
  const sessions = join(root, "sessions");

  // SessionEnd handed finalize to a background process: wait for it.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !existsSync(join(sessions, "LATEST-SESSION.txt"))) await Bun.sleep(100);
  await Bun.sleep(200);

  const state = JSON.parse(readFileSync(join(root, "state", "sessions", `${sid}.json`), "utf8"));
  expect(state).toMatchObject({
    session_id: sid,
    model: "claude-sonnet-4-5",
    window_size: 200000,
    used_tokens: 184000,
    used_pct: 92,
    threshold_reached: "auto_pause",
    auto_pause_active: true,
    tool_calls: 8,
    task_id: "task-1091",
    last_event: "SessionEnd",
  });
  expect(state.peak_pct).toBe(92);
  expect(typeof state.claude_pid).toBe("number");
  expect(state.models["claude-sonnet-4-5"].requests).toBe(8);
  expect(state.finalized_stamp).toMatch(/^\d{8}-\d{6}$/);

  const name = readFileSync(join(sessions, "LATEST-SESSION.txt"), "utf8")
    .trim()
    .replace(/\.json$/, "");
  for (const ext of [".json", ".yaml", ".md", "-incremental.jsonl"])
    expect(existsSync(join(sessions, `${name}${ext}`))).toBe(true);
  expect(existsSync(join(sessions, `ACTIVE-PAUSE-${sid}.jsonl`))).toBe(false);
  const log = readFileSync(join(sessions, `${name}-incremental.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  // auto_pause comes at the 200k window's auto-compact point (167k): the call at 172k is captured too
  expect(log.map((e) => e.type)).toEqual(["pause_started", "tool_call", "tool_call", "assistant_response"]);
  expect(log[1]!.data.tool).toBe("Bash");
  expect(log[2]).toMatchObject({
    session_id: sid,
    data: { tool: "Write", args_summary: { file_path: join(project, "notes.md") } },
    context_percentage: 91,
  });
  expect(log[3].data.summary).toContain("tests are still to write");

  const [summaryName] = readdirSync(sessions).filter((n) => n.startsWith("summary-task-1091-") && n.endsWith(".md"));
  const md = readFileSync(join(sessions, summaryName!), "utf8");
  expect(md).toContain("- Team: team-5");
  expect(md).toContain(`- Sessions (1, oldest first): ${sid}`);
  expect(md).toContain("92% used (184000 / 200000 tokens");
  expect(md).toContain("> Implement the greeting, then write tests");
  expect(md).toContain("- [x] #1 Implement greeting");
  expect(md).toContain("- [ ] #2 Write tests");
  expect(md).toContain("`greet.txt` (Write, Edit; this session)");
  expect(md).toContain("`notes.md` (Write; this session)");
  // A failed `ls` is a lookup: counted and shown as FAIL, never an open error.
  expect(md).toContain("FAIL `ls /nonexistent-dir-xyz`");
  expect(md).toContain("## Unresolved errors\n- (none)");
  expect(md).toContain("ok   `echo checked`");
  expect(md).toContain("## Last meaningful step\n- Write notes.md (this session)");
  // The machine-readable twin next to it.
  const twin = JSON.parse(readFileSync(join(sessions, summaryName!.replace(/\.md$/, ".json")), "utf8"));
  expect(twin).toMatchObject({ task_id: "task-1091", goal: "Implement the greeting, then write tests" });

  const ledger = JSON.parse(readFileSync(join(root, "token-ledger.json"), "utf8"));
  expect(ledger.tasks["task-1091"]).toMatchObject({ requests: 8, sessions: [sid] });
  const index = JSON.parse(readFileSync(join(sandbox.env.XDG_STATE_HOME!, "ctx", "sessions", `${sid}.json`), "utf8"));
  expect(index).toMatchObject({ session_id: sid, used_pct: 92, auto_pause_active: true });
}, 120_000);
