/**
 * The payloads the fuzzer mutates: the real recorded ones in test/fixtures/hooks
 * and test/fixtures/statusline (any `*.json`, or `*.jsonl` of recorder lines
 * `{ label, stdin }`), plus the statusLine payload recorded in PROTOCOL.md, so
 * the fuzzer has seeds even before the fixtures are recorded.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;

const FIXTURES = join(import.meta.dir, "..", "fixtures");

/** The statusLine payload recorded from client v2.1.197 (docs/clients.md). */
const RECORDED_STATUSLINE: Json = {
  session_id: "3b0c2a6e-0000-4000-8000-000000000001",
  transcript_path: "/root/.claude/projects/-p/3b0c2a6e.jsonl",
  cwd: "/p",
  prompt_id: "p1",
  effort: { level: "high" },
  model: { id: "claude-opus-4-8[1m]", display_name: "Opus 4.8 (1M context)" },
  workspace: { current_dir: "/p", project_dir: "/p", added_dirs: [] },
  version: "2.1.197",
  output_style: { name: "default" },
  cost: {
    total_cost_usd: 0.174,
    total_duration_ms: 7884,
    total_api_duration_ms: 139,
    total_lines_added: 0,
    total_lines_removed: 0,
  },
  context_window: {
    total_input_tokens: 171050,
    total_output_tokens: 20,
    context_window_size: 1000000,
    current_usage: {
      input_tokens: 50,
      output_tokens: 20,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 170000,
    },
    used_percentage: 17,
    remaining_percentage: 83,
  },
  exceeds_200k_tokens: false,
  fast_mode: false,
  thinking: { enabled: true },
};

/** Hook payloads in the recorded shapes (PROTOCOL.md), one per event ctx handles. */
const RECORDED_HOOKS: Json[] = [
  { hook_event_name: "SessionStart", source: "startup", model: "claude-sonnet-4-5" },
  { hook_event_name: "SessionStart", source: "clear", model: "claude-sonnet-4-5" },
  { hook_event_name: "SessionStart", source: "compact" },
  { hook_event_name: "UserPromptSubmit", permission_mode: "default", prompt: "fix the failing test" },
  {
    hook_event_name: "PostToolUse",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command: "ls -la", description: "list" },
    tool_response: { stdout: "a\nb\n", stderr: "", interrupted: false },
    tool_use_id: "toolu_01ABC",
    duration_ms: 12,
  },
  {
    hook_event_name: "PostToolUse",
    tool_name: "TaskCreate",
    tool_input: { subject: "Write tests", description: "d", activeForm: "Writing tests" },
    tool_response: { task: { id: "1", subject: "Write tests" } },
    tool_use_id: "toolu_01DEF",
  },
  {
    hook_event_name: "PostToolUse",
    tool_name: "Edit",
    tool_input: { file_path: "/p/a.ts", old_string: "a", new_string: "b" },
    tool_response: { filePath: "/p/a.ts" },
    tool_use_id: "toolu_01GHI",
  },
  {
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "false" },
    error: "Exit code 1",
    tool_use_id: "toolu_01JKL",
  },
  {
    hook_event_name: "AfterTool",
    tool_name: "run_shell_command",
    tool_input: { command: "ls" },
    tool_response: { llmContent: "x", returnDisplay: "x" },
    timestamp: "2025-01-01T00:00:00Z",
  },
  { hook_event_name: "Stop", stop_hook_active: false },
  { hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" },
  { hook_event_name: "SessionEnd", reason: "other" },
];

/** The seeds for one kind of stdin: the recorded fixtures of that kind first, then the built-in ones. */
export function seedPayloads(kind: "hooks" | "statusline"): Json[] {
  const recorded = loadFixtures(join(FIXTURES, kind));
  const builtIn =
    kind === "statusline"
      ? [RECORDED_STATUSLINE]
      : RECORDED_HOOKS.map((h) => ({ session_id: "s", transcript_path: "/t.jsonl", cwd: "/p", ...h }));
  return [...recorded, ...builtIn];
}

/**
 * Points a payload at the sandbox: its session, project and transcript, so
 * every run exercises real state (the mutations then break it from there).
 */
export function retarget(p: Json, at: { sessionId: string; project: string; transcript: string }): Json {
  const out: Json = { ...p, session_id: at.sessionId, cwd: at.project };
  if ("transcript_path" in p || "hook_event_name" in p) out.transcript_path = at.transcript;
  if (p.workspace && typeof p.workspace === "object")
    out.workspace = { ...(p.workspace as Json), current_dir: at.project, project_dir: at.project };
  return out;
}

// --- internal ---

function loadFixtures(dir: string): Json[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: Json[] = [];
  for (const name of names) {
    const text = readFileSync(join(dir, name), "utf8");
    const docs = name.endsWith(".jsonl")
      ? text.split("\n").filter((l) => l.trim())
      : name.endsWith(".json")
        ? [text]
        : [];
    for (const doc of docs) {
      try {
        const v = JSON.parse(doc) as Json;
        const payload =
          v && typeof v === "object" && "stdin" in v && typeof v.stdin === "object" ? (v.stdin as Json) : v;
        if (payload && typeof payload === "object" && !Array.isArray(payload)) out.push(payload);
      } catch {
        // not a payload file
      }
    }
  }
  return out;
}
