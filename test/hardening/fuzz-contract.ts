/**
 * What every stdin-reading command may print, whatever it was fed: nothing,
 * one sane status line (statusline), or valid hook JSON of its own shape.
 * Each check returns the reason the output breaks the contract, or undefined.
 */

/** A command under fuzz: its argv, which seeds it is fed, and its stdout contract. */
export interface FuzzTarget {
  name: string;
  argv: string[];
  seeds: "hooks" | "statusline";
  /** The reason `stdout` breaks the contract, or undefined when it is fine. */
  check: (stdout: string) => string | undefined;
  /** Its own stdin timeout (ms) with the defaults, for the time budget. */
  stdinTimeoutMs: number;
}

const ANSI_SGR = /\u001b\[[0-9;]*m/g;
/** Longest visible status line accepted as sane. */
const MAX_LINE = 300;

/** The statusline prints exactly one line: no control characters, bounded width. */
export function checkStatusline(out: string): string | undefined {
  if (!out.endsWith("\n") || out.indexOf("\n") !== out.length - 1)
    return `not exactly one line: ${JSON.stringify(out.slice(0, 200))}`;
  const visible = out.slice(0, -1).replace(ANSI_SGR, "");
  if (visible.trim() === "") return "blank line";
  // eslint-disable-next-line no-control-regex
  // C0/C1 controls, line separators, and bidi controls (which reorder the rest of the line on screen)
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(visible))
    return `control character in ${JSON.stringify(visible.slice(0, 200))}`;
  if ([...visible].length > MAX_LINE) return `line of ${[...visible].length} characters`;
  return undefined;
}

/** The monitor prints nothing or `{"hookSpecificOutput":{"hookEventName","additionalContext"}}`. */
export function checkMonitor(out: string): string | undefined {
  return checkJson(out, (v) => {
    const h = v.hookSpecificOutput as Record<string, unknown> | undefined;
    if (Object.keys(v).join() !== "hookSpecificOutput" || !h) return "unexpected keys";
    if (!["PostToolUse", "PostToolUseFailure", "AfterTool"].includes(h.hookEventName as string))
      return `bad hookEventName ${String(h.hookEventName)}`;
    if (typeof h.additionalContext !== "string" || !/^CONTEXT (WARNING|CRITICAL): \d+% /.test(h.additionalContext))
      return "bad additionalContext";
    return undefined;
  });
}

/** track prints nothing or `{"systemMessage": "..."}`. */
export function checkTrack(out: string): string | undefined {
  return checkJson(out, (v) =>
    Object.keys(v).join() === "systemMessage" && typeof v.systemMessage === "string" && v.systemMessage.length > 0
      ? undefined
      : "not a systemMessage",
  );
}

/** resume --hook prints nothing or a SessionStart additionalContext (an injection adds the user's one-line systemMessage). */
export function checkResumeHook(out: string): string | undefined {
  return checkJson(out, (v) => {
    const h = v.hookSpecificOutput as Record<string, unknown> | undefined;
    const keys = Object.keys(v).join();
    if ((keys !== "hookSpecificOutput" && keys !== "hookSpecificOutput,systemMessage") || !h) return "unexpected keys";
    if (
      v.systemMessage !== undefined &&
      (typeof v.systemMessage !== "string" || /[\n\r\x00-\x1f]/.test(v.systemMessage))
    )
      return "systemMessage is not one clean line";
    return h.hookEventName === "SessionStart" &&
      typeof h.additionalContext === "string" &&
      h.additionalContext.length > 0
      ? undefined
      : "bad SessionStart output";
  });
}

/** Every stdin-reading command, with its contract. */
export const FUZZ_TARGETS: FuzzTarget[] = [
  { name: "statusline", argv: ["statusline"], seeds: "statusline", check: checkStatusline, stdinTimeoutMs: 1000 },
  { name: "monitor", argv: ["monitor"], seeds: "hooks", check: checkMonitor, stdinTimeoutMs: 2000 },
  { name: "track", argv: ["track"], seeds: "hooks", check: checkTrack, stdinTimeoutMs: 2000 },
  { name: "resume --hook", argv: ["resume", "--hook"], seeds: "hooks", check: checkResumeHook, stdinTimeoutMs: 2000 },
];

// --- internal ---

function checkJson(out: string, shape: (v: Record<string, unknown>) => string | undefined): string | undefined {
  if (out === "") return undefined;
  if (!out.endsWith("\n") || out.indexOf("\n") !== out.length - 1)
    return `not one JSON line: ${JSON.stringify(out.slice(0, 200))}`;
  let v: unknown;
  try {
    v = JSON.parse(out);
  } catch {
    return `invalid JSON: ${JSON.stringify(out.slice(0, 200))}`;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
  return shape(v as Record<string, unknown>);
}
