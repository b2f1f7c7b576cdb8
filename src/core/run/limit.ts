/**
 * The usage limit as `claude -p --output-format json` reports it, and how long `ctx run` waits for
 * it. Pure. The reset time is read by the shared parser (core/limit.ts, also `ctx respawn`'s).
 */
import { parseResetTime } from "../limit.ts";

/** A usage limit a leg ran into. */
export interface LimitHit {
  /** When the limit resets (ms since the epoch), when the client said so. */
  resetsAt?: number;
  /** The client's text, e.g. `You've hit your session limit · resets 3:03pm (UTC)`. */
  text: string;
}

/**
 * The usage limit in a headless result (`api_error_status: 429`, or a `rate_limit` error), with
 * the reset time read from its text relative to `now`; undefined when the result is no limit.
 */
export function headlessLimit(result: unknown, now: number): LimitHit | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const r = result as Record<string, unknown>;
  const text = typeof r.result === "string" ? r.result : "";
  const limited = r.api_error_status === 429 || r.error === "rate_limit" || /hit your [\w -]{0,40}limit/i.test(text);
  if (!limited) return undefined;
  return { resetsAt: parseReset(text, now), text: text.slice(0, 300) };
}

/**
 * The reset time in a limit message (`resets 3:03pm (UTC)`, `resets 8pm (America/New_York)`, a dated
 * `resets Dec 3, 3pm (Europe/Paris)`), read by the shared parser of core/limit.ts; undefined when the
 * message names no time or a zone Intl does not know.
 */
export function parseReset(text: string, now: number): number | undefined {
  return parseResetTime(text, now) ?? undefined;
}

/**
 * How long to wait at a limit: until the reset plus `marginMs`; when the reset shown (to the minute)
 * is already due, the margin, and without a reset time `backoffMs`, each doubled with every limit in
 * a row (`attempt` 0, 1, …), at most an hour.
 */
export function limitWaitMs(hit: LimitHit, now: number, attempt: number, marginMs: number, backoffMs: number): number {
  if (hit.resetsAt !== undefined && hit.resetsAt > now) return hit.resetsAt - now + marginMs;
  const base = Math.max(1000, hit.resetsAt !== undefined ? marginMs : backoffMs);
  return Math.min(HOUR, base * 2 ** Math.min(attempt, 20));
}

// --- internal ---

const HOUR = 3_600_000;
