/**
 * Codex CLI (`@openai/codex`): hooks in Claude Code's shape in `$CODEX_HOME/hooks.json`, trusted
 * by hash in config.toml (io/codex-trust.ts), the rollout as transcript (codex-rollout.ts), and a
 * used % its UI computes against the window minus a 12k baseline. docs/clients.md, "The context figure".
 */
import { ROLLOUT_NEEDLES, rolloutRequest, rolloutUsage } from "./codex-rollout.ts";
import type { AgentAdapter, LineUsage } from "./types.ts";

/** The tokens Codex's UI takes as the fixed baseline of any context (instructions, tools). */
const CODEX_BASELINE = 12_000;

/** How much of its window a hook's added context may take: well above Codex's ~2.5k default cut. */
const CODEX_CONTEXT_LIMIT = 20_000;

/** Codex's cap on a SessionEnd hook's timeout, in seconds. */
export const CODEX_SESSION_END_S = 3;

/** A rollout line: `{timestamp, ordinal, type, payload}`, of one of these types or numbered by `ordinal`. */
const ROLLOUT_TYPES = new Set([
  "session_meta",
  "turn_context",
  "response_item",
  "event_msg",
  "compacted",
  "token_usage_record",
  "world_state",
]);

/** Codex CLI's adapter. */
export const codex: AgentAdapter<"codex"> = {
  name: "codex",
  label: "Codex CLI",
  process: { name: /^codex(\.exe)?$/i, path: /@openai\/codex[^/]*\/|\/codex-(linux|darwin|win32)-[^/]*\// },
  settings: { dir: ".codex", file: "hooks.json", homeEnv: "CODEX_HOME" },
  // No status-line command: `/statusline` picks built-in items (doctor --codex says which).
  statusLine: false,
  timeoutUnit: 1,
  hooks: [
    // An explicit limit: without one Codex cuts a hook's added context at about 2.5k tokens.
    { event: "PostToolUse", sub: "monitor", extra: { additionalContextLimit: CODEX_CONTEXT_LIMIT } },
    { event: "PostToolUse", sub: "track" },
    { event: "SessionStart", sub: "track" },
    { event: "SessionStart", sub: "resume --hook", extra: { additionalContextLimit: CODEX_CONTEXT_LIMIT } },
    { event: "UserPromptSubmit", sub: "track" },
    { event: "Stop", sub: "track" },
    { event: "PreCompact", sub: "track" },
    // Codex clamps a SessionEnd hook to 3 s (and hashes the clamped entry): register it so.
    { event: "SessionEnd", sub: "track", timeout: CODEX_SESSION_END_S },
  ],
  events: {
    SessionStart: "SessionStart",
    UserPromptSubmit: "UserPromptSubmit",
    PostToolUse: "PostToolUse",
    Stop: "Stop",
    PreCompact: "PreCompact",
    PostCompact: "PostCompact",
    SessionEnd: "SessionEnd",
  },
  // Codex's payloads use Claude Code's field names (`tool_input.command` for its shell, called `Bash`).
  fields: (_event, input) => input,
  // The payload only: under the TUI hooks run in a shared app-server, whose parent and TMUX_PANE are not the session's.
  claimsHook: (input) =>
    typeof input.turn_id === "string" ||
    (typeof input.transcript_path === "string" && /\/rollout-[^/]*\.jsonl$/.test(input.transcript_path)),
  claimsLine: (e) =>
    typeof e.payload === "object" &&
    e.payload !== null &&
    (typeof e.ordinal === "number" || (typeof e.type === "string" && ROLLOUT_TYPES.has(e.type))),
  transcript: {
    needles: [...ROLLOUT_NEEDLES, '"turn_context"'],
    usage: rolloutUsage,
    // Read on to the window and the model the rollout's older lines record.
    whole: (acc) => acc.windowSize !== undefined && acc.model !== undefined,
    tokens: codexTokens,
  },
  // A rollout names the call in its function_call line (`call_id`), written before the tool runs.
  toolNeedle: (id) => `"call_id":"${id}"`,
  // The rollout's token_count carries `model_context_window`: no guess from the model name.
  windowOf: () => undefined,
  usedPct: codexUsedPct,
  // Headless work goes on in a new `codex exec` thread: its SessionStart (startup) gets the handoff.
  startupContinues: true,
  pane: { busy: /esc to interrupt/i, idle: /› Ask Codex/, context: /Context (\d+)% used/ },
};

/**
 * The used % as Codex's UI shows it: T tokens of a W window, both less a 12k baseline:
 * 100 − round(100 × max(0, W − 12k − max(0, T − 12k)) / (W − 12k)).
 */
export function codexUsedPct(usedTokens: number, windowSize: number): number {
  const span = windowSize - CODEX_BASELINE;
  if (!(span > 0)) return 0;
  const left = Math.max(0, span - Math.max(0, usedTokens - CODEX_BASELINE));
  return 100 - Math.round((100 * left) / span);
}

/** A Codex CLI rollout's `token_usage_record`: one request, its cached input counted as cache reads. */
function codexTokens(entry: Record<string, unknown>, model: string | undefined): LineUsage | undefined {
  const r = rolloutRequest(entry);
  if (!r) return undefined;
  return {
    key: r.key,
    model: model ?? "unknown",
    totals: {
      input_tokens: r.input,
      output_tokens: r.output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: r.cached,
      requests: 1,
    },
  };
}
