/** Gemini CLI (`@google/gemini-cli`): its own event names, millisecond timeouts, a JSONL chat log. */
import type { AgentAdapter } from "./types.ts";

/** Gemini models' window: 1,048,576 tokens. */
export const WINDOW_GEMINI = 1_048_576;

/** The events only Gemini CLI sends. */
const OWN_EVENTS = new Set(["AfterTool", "BeforeTool", "BeforeAgent", "AfterAgent", "PreCompress"]);

/** Gemini CLI's adapter. */
export const gemini: AgentAdapter = {
  name: "gemini",
  label: "Gemini CLI",
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
  windowOf: (model) => (model && /^gemini/i.test(model) ? WINDOW_GEMINI : undefined),
  pane: { busy: /esc to cancel/i, idle: /Type your message/i },
};
