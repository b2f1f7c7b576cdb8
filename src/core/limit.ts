/**
 * The usage limit (Claude Code subscriptions, and a bare 429 for API keys): recognised in every
 * source the client gives, and when to try again. Pure; the reset time itself is read by
 * `limit-time.ts`. Facts: docs/clients.md, "Usage limits".
 *
 * API, for every caller (`ctx track`, `ctx respawn`, `ctx run`):
 * - `limitFromHook(input)`, `limitFromTranscriptLine(line)`, `limitFromResult(json)` (a pane: `limitFromPane` in screen.ts):
 *   a `UsageLimit` or undefined; `limitMessage(text)` for any one line of text.
 * - `limitWaitUntil(limit, repeat, marginMs)`: when to try again (reset + margin, or the back-off).
 */
import { asObject } from "./json.ts";
import { clockTime, parseResetTime } from "./limit-time.ts";

export { clockTime, parseResetTime, validZone, zonedTime } from "./limit-time.ts";

/** A usage limit the client reported. */
export interface UsageLimit {
  /** The client's message, one line (`You've hit your session limit · resets 3:03pm (UTC)`). */
  message: string;
  /** When it was seen (ms). */
  at: number;
  /** The reset instant the message names (ms), or null (an API key's 429 names none). */
  resetsAt: number | null;
}

/**
 * Back-off when the reset time is unknown or a limit comes back right after it: the wait before the
 * n-th attempt in a row (n = 1, 2, …; the last entry repeats). Minutes: 5, 10, 20, 40, 60.
 */
export const LIMIT_BACKOFF_MS: readonly number[] = [5, 10, 20, 40, 60].map((m) => m * 60_000);

/**
 * When to try again after `limit`, the `repeat`-th limit in a row (1 for the first): its reset plus
 * `marginMs`; without a reset time the back-off; a repeated limit waits at least its back-off step.
 */
export function limitWaitUntil(limit: UsageLimit, repeat: number, marginMs: number): number {
  const step = (n: number) => LIMIT_BACKOFF_MS[Math.min(Math.max(n, 0), LIMIT_BACKOFF_MS.length - 1)]!;
  if (limit.resetsAt === null) return limit.at + step(repeat - 1);
  const reset = limit.resetsAt + marginMs;
  return repeat > 1 ? Math.max(reset, limit.at + step(repeat - 2)) : reset;
}

/** The limit message in one line of text, or undefined: the subscription's wording or an API key's 429. */
export function limitMessage(text: string): string | undefined {
  const line = text.replace(/\s+/g, " ").trim();
  const m = LIMIT_TEXT.exec(line) ?? REJECTED_429.exec(line);
  return m ? m[0].trim().slice(0, 300) : undefined;
}

/** A limit in a hook payload: `StopFailure` with `error: "rate_limit"` (the message in `last_assistant_message`). */
export function limitFromHook(input: unknown, at: number): UsageLimit | undefined {
  const v = asObject(input);
  if (!v || v.hook_event_name !== "StopFailure" || v.error !== "rate_limit") return undefined;
  const text = typeof v.last_assistant_message === "string" ? v.last_assistant_message : "";
  return make(limitMessage(text) ?? "usage limit (rate_limit)", at);
}

/** A limit in a transcript line: the assistant line with `isApiErrorMessage: true, error: "rate_limit"`. */
export function limitFromTranscriptLine(line: unknown): UsageLimit | undefined {
  const v = asObject(line);
  if (!v || v.type !== "assistant" || v.isApiErrorMessage !== true || v.error !== "rate_limit") return undefined;
  const at = typeof v.timestamp === "string" ? Date.parse(v.timestamp) : NaN;
  if (!Number.isFinite(at)) return undefined;
  const content = asObject(v.message)?.content;
  const texts = Array.isArray(content)
    ? content.map((c) => asObject(c)?.text).filter((t) => typeof t === "string")
    : [];
  return make(limitMessage(texts.join(" ")) ?? "usage limit (rate_limit)", at);
}

/** A limit in a headless result (`claude -p --output-format json`): `is_error` with `api_error_status: 429`. */
export function limitFromResult(result: unknown, at: number): UsageLimit | undefined {
  const v = asObject(result);
  if (!v || v.is_error !== true || v.api_error_status !== 429) return undefined;
  const text = typeof v.result === "string" ? v.result : "";
  return make(limitMessage(text) ?? "usage limit (429)", at);
}

/**
 * The longest wait a reset may ask for: the client names at most about 7 days (the weekly limit), so
 * a later reset (text a tool printed, a skewed clock) is read as this far ahead at most.
 */
export const RESET_HORIZON_MS = 7 * 86_400_000 + 3_600_000;

/** A reset instant capped to `RESET_HORIZON_MS` after `seenAt` (null stays null). */
export function capReset(resetsAt: number | null, seenAt: number): number | null {
  return resetsAt === null ? null : Math.min(resetsAt, seenAt + RESET_HORIZON_MS);
}

/** The usage limit in a few words, the reset in the user's local time: `limit · resets 15:03`, or `limit`. */
export function limitText(resetsMs: number | null): string {
  return resetsMs === null || !Number.isFinite(resetsMs) ? "limit" : `limit · resets ${clockTime(resetsMs)}`;
}

// --- internal ---

/** `You've hit your session limit · resets 3:03pm (UTC)`, `You've reached your weekly limit …`. */
const LIMIT_TEXT = /You(?:'|’)ve (?:hit|reached) your [^·\n]*?limit(?:\s*·\s*resets [^·\n]*\))?/i;
/** An API key's 429: `API Error: Request rejected (429) · …`. */
const REJECTED_429 = /(?:API Error: )?Request rejected \(429\)/i;

function make(message: string, at: number): UsageLimit {
  return { message, at, resetsAt: parseResetTime(message, at) };
}
