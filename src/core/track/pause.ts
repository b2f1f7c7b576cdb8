/** One line of `ACTIVE-PAUSE-<sid>.jsonl`. */
export interface PauseEntry {
  /** pause_started, tool_call, assistant_response, user_message, compaction or pause_ended. */
  type: string;
  /** ISO-8601 time of the event. */
  timestamp: string;
  session_id: string;
  /** Type-specific details, texts and arguments truncated. */
  data: Record<string, unknown>;
  /** used % of the context at the time (0-100). */
  context_percentage: number;
}

/** Longest text kept from a message or a tool argument. */
const MAX_TEXT = 500;
/** Longest string kept for a single argument value. */
const MAX_ARG = 200;

/** `text` cut to `max` characters, marked with an ellipsis and the original length. */
export function truncate(text: string, max = MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length} chars]`;
}

/**
 * A tool's arguments made small: strings cut to MAX_ARG, nested values shown as
 * short JSON, at most 12 keys. File contents never end up whole in the log.
 */
function summarizeArgs(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== "object" || Array.isArray(input)) return {};
  const out: Record<string, unknown> = {};
  const entries = Object.entries(input as Record<string, unknown>);
  for (const [key, value] of entries.slice(0, 12)) {
    if (typeof value === "string") out[key] = truncate(value, MAX_ARG);
    else if (value === null || typeof value === "number" || typeof value === "boolean") out[key] = value;
    else out[key] = truncate(safeJson(value), MAX_ARG);
  }
  if (entries.length > 12) out["…"] = `${entries.length - 12} more`;
  return out;
}

/**
 * What a hook event contributes to the pause log, or undefined for events that
 * carry no action: tool calls, the agent's last response at Stop, the user's prompt.
 */
export function pauseItem(
  event: string,
  input: Record<string, unknown>,
): { type: string; data: Record<string, unknown> } | undefined {
  const text = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  switch (event) {
    case "PostToolUse":
    case "PostToolUseFailure": {
      const data: Record<string, unknown> = {
        tool: text("tool_name") || "unknown",
        args_summary: summarizeArgs(input.tool_input),
      };
      if (text("tool_use_id")) data.tool_use_id = text("tool_use_id");
      if (event === "PostToolUseFailure")
        Object.assign(data, { is_error: true, error: truncate(text("error"), MAX_TEXT) });
      return { type: "tool_call", data };
    }
    case "Stop":
      return text("last_assistant_message")
        ? { type: "assistant_response", data: { summary: truncate(text("last_assistant_message")) } }
        : undefined;
    case "UserPromptSubmit":
      return text("prompt") ? { type: "user_message", data: { summary: truncate(text("prompt")) } } : undefined;
    case "PreCompact":
      return { type: "compaction", data: { trigger: text("trigger") || null } };
    default:
      return undefined;
  }
}

// --- internal ---

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
