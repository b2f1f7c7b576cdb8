/** Claude Code (`@anthropic-ai/claude-code`): the reference client; its event and field names are ctx's own. */
import { claudeLine, claudeTranscript } from "./claude-lines.ts";
import type { AgentAdapter } from "./types.ts";

/** Claude Code's hook events, the ones ctx reads and the others, for the claim of a payload. */
const OWN_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "UserPromptSubmit",
  "SessionStart",
  "SessionEnd",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "PermissionRequest",
  "Setup",
  // ctx's own Claude Code mod (plugin/register.ts) calls `ctx monitor` with these (commands/monitor-mod.ts).
  "ModStep",
  "ModIdle",
  "ModCycleDone",
  "ModLimit",
]);

/** Claude Code's adapter. */
export const claude: AgentAdapter<"claude"> = {
  name: "claude",
  label: "Claude Code",
  process: {
    name: /^claude(\.exe)?$/i,
    path: /claude-code[^/]*\/(cli\.m?js|bin\/claude(\.exe)?)$/,
    env: ["CLAUDECODE", "CLAUDE_CODE_SESSION_ID"],
  },
  settings: { dir: ".claude", file: "settings.json", homeEnv: "CLAUDE_CONFIG_DIR" },
  statusLine: true,
  localSettings: "settings.local.json",
  timeoutUnit: 1,
  hooks: [
    { event: "PostToolUse", sub: "monitor", matcher: "*" },
    { event: "PostToolUse", sub: "track", matcher: "*" },
    // A failing tool call (a Bash exit code other than 0) fires only PostToolUseFailure: CRITICAL crossed there
    // must reach the agent and start the handoff as well (both pinned clients honour additionalContext there).
    { event: "PostToolUseFailure", sub: "monitor", matcher: "*" },
    { event: "PostToolUseFailure", sub: "track", matcher: "*" },
    { event: "SessionStart", sub: "track" },
    { event: "SessionStart", sub: "resume --hook" },
    { event: "UserPromptSubmit", sub: "track" },
    { event: "Stop", sub: "track" },
    // A turn that failed: at the usage limit `error` is "rate_limit" (core/limit.ts).
    { event: "StopFailure", sub: "track" },
    { event: "PreCompact", sub: "track" },
    { event: "SessionEnd", sub: "track" },
  ],
  events: {
    SessionStart: "SessionStart",
    UserPromptSubmit: "UserPromptSubmit",
    PostToolUse: "PostToolUse",
    PostToolUseFailure: "PostToolUseFailure",
    Stop: "Stop",
    StopFailure: "StopFailure",
    PreCompact: "PreCompact",
    SessionEnd: "SessionEnd",
  },
  fields: (_event, input) => input,
  // Tried last: a payload of Claude Code's events that no other client claimed, a line of its types.
  claimsHook: (input) => OWN_EVENTS.has(String(input.hook_event_name)),
  claimsLine: claudeLine,
  transcript: claudeTranscript,
  toolNeedle: (id) => `"id":"${id}"`,
  windowOf: () => undefined,
  pane: { busy: /esc to interrupt/i, idle: /^\s*❯\s*$/m },
};
