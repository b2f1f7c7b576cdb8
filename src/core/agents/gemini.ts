/** Gemini CLI (`@google/gemini-cli`): its own event names, millisecond timeouts, a JSONL chat log. */
import { isObject } from "../json.ts";
import { count } from "../usage.ts";
import type { AgentAdapter, LineUsage, UsageFacts } from "./types.ts";

/** Gemini models' window: 1,048,576 tokens. */
export const WINDOW_GEMINI = 1_048_576;

/** The events only Gemini CLI sends. */
const OWN_EVENTS = new Set(["AfterTool", "BeforeTool", "BeforeAgent", "AfterAgent", "PreCompress"]);

/** Gemini CLI's adapter. */
export const gemini: AgentAdapter<"gemini"> = {
  name: "gemini",
  label: "Gemini CLI",
  process: {
    name: /^gemini(\.exe)?$/i,
    path: /@google\/gemini-cli[^/]*\/|\/gemini-cli\/(bundle|dist)\//,
    env: ["GEMINI_CLI"],
  },
  settings: { dir: ".gemini", file: "settings.json" },
  statusLine: false,
  timeoutUnit: 1000,
  // Gemini matchers are regular expressions over its tool names (run_shell_command, write_file, …).
  hooks: [
    { event: "AfterTool", sub: "monitor", matcher: ".*" },
    { event: "AfterTool", sub: "track", matcher: ".*" },
    { event: "SessionStart", sub: "track" },
    { event: "SessionStart", sub: "resume --hook" },
    { event: "BeforeAgent", sub: "track" },
    { event: "AfterAgent", sub: "track" },
    { event: "PreCompress", sub: "track" },
    { event: "SessionEnd", sub: "track" },
  ],
  events: {
    SessionStart: "SessionStart",
    AfterTool: "PostToolUse",
    BeforeAgent: "UserPromptSubmit",
    AfterAgent: "Stop",
    // Fired before every request: not evidence of a compression (core/track/step.ts).
    PreCompress: "PreCompress",
    SessionEnd: "SessionEnd",
  },
  fields(event, input) {
    const out: Record<string, unknown> = { ...input, hook_event_name: event };
    if (event === "Stop" && typeof input.prompt_response === "string" && out.last_assistant_message === undefined)
      out.last_assistant_message = input.prompt_response;
    return out;
  },
  claimsHook: (input) =>
    OWN_EVENTS.has(String(input.hook_event_name)) ||
    (typeof input.transcript_path === "string" && input.transcript_path.includes("/.gemini/tmp/")),
  // A `gemini` record, or a `user` record with `content[]` and no Claude Code `message`.
  claimsLine: (e) => e.type === "gemini" || (e.type === "user" && e.message === undefined && Array.isArray(e.content)),
  transcript: { needles: ['"tokens"'], usage: geminiUsage, tokens: geminiTokens },
  // The call as the chat log names it.
  toolNeedle: (id) => `"id":"${id}"`,
  windowOf: (model) => (model && /^gemini/i.test(model) ? WINDOW_GEMINI : undefined),
  pane: { busy: /esc to cancel/i, idle: /Type your message/i },
};

/** A chat-log record's context: its prompt's input tokens plus the tool results sent with it. */
function geminiUsage(e: Record<string, unknown>): UsageFacts | undefined {
  if (!isObject(e.tokens) || typeof e.tokens.input !== "number") return undefined;
  return {
    usedTokens: count(e.tokens.input) + count(e.tokens.tool),
    model: typeof e.model === "string" ? e.model : undefined,
  };
}

/**
 * A Gemini CLI chat-log record (`type: "gemini"`, `tokens{input,output,cached,thoughts,tool}`, `model`).
 * The client writes a record again once its tool calls ran (same `id`): the key dedupes it.
 * `input` counts the cached part too: the cached tokens are the cache reads.
 */
function geminiTokens(entry: Record<string, unknown>): LineUsage | undefined {
  const t = entry.tokens;
  if (entry.type !== "gemini" || !isObject(t) || typeof entry.id !== "string" || !entry.id) return undefined;
  const cached = count(t.cached);
  return {
    key: `gemini|${entry.id}`,
    model: typeof entry.model === "string" ? entry.model : "unknown",
    totals: {
      input_tokens: Math.max(0, count(t.input) - cached) + count(t.tool),
      output_tokens: count(t.output) + count(t.thoughts),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: cached,
      requests: 1,
    },
  };
}
