/** The fields of a hook's stdin that ctx reads; anything may be missing or of a wrong type. */
export interface HookInput {
  session_id?: unknown;
  transcript_path?: unknown;
  cwd?: unknown;
  hook_event_name?: unknown;
  [key: string]: unknown;
}

const HEAD_FIELDS = ["session_id", "transcript_path", "cwd", "hook_event_name", "source", "reason"] as const;

/**
 * Parses hook stdin. Input that is not a JSON object gives `{}`; input cut short
 * (too big, or a stdin left open) still yields the plain string fields that
 * Claude Code puts first, so the hook can work with what it has.
 */
export function parseHookInput(text: string): HookInput {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as HookInput) : {};
  } catch {
    return salvage(text);
  }
}

/** A string field of the input, or undefined when absent or not a string. */
export function str(input: HookInput, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

// --- internal ---

function salvage(text: string): HookInput {
  const out: HookInput = {};
  const head = text.slice(0, 64 * 1024);
  for (const field of HEAD_FIELDS) {
    const m = new RegExp(`"${field}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,4096})"`).exec(head);
    if (!m) continue;
    try {
      out[field] = JSON.parse(`"${m[1]}"`);
    } catch {
      // an escape cut in half: leave the field out
    }
  }
  return out;
}
