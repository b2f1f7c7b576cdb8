import { isObject } from "./json.ts";

/** Token counts as the Anthropic API reports them for one request. */
export interface ApiUsage {
  input_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
  output_tokens?: unknown;
  /** Each call of a request that consulted another model on the server (see contextTokens). */
  iterations?: unknown;
}

/** A context reading: how full the window is. */
export interface ContextReading {
  /** Tokens in the context: input + cache creation + cache read of the latest request. */
  usedTokens: number;
  /** The context window in tokens. */
  windowSize: number;
  /** Used share of the window, rounded like Claude Code's `used_percentage`. */
  usedPct: number;
  /** 100 - usedPct, never below 0. */
  remainingPct: number;
}

/** The standard window, and the large one of `[1m]` models. */
export const WINDOW_200K = 200_000;
export const WINDOW_1M = 1_000_000;

/** The largest token count taken as real (far above any context window): beyond it a figure is garbage. */
const MAX_TOKENS = 100_000_000;

/** A count as a non-negative integer; anything else (negative, not finite, above MAX_TOKENS) is 0. */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 && value <= MAX_TOKENS
    ? Math.floor(value)
    : 0;
}

/** A percentage as given by a client or a file: a finite number in 0..100, else undefined (rejected). */
export function percentage(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 100 ? value : undefined;
}

/**
 * Tokens occupying the context after a request: input + cache creation + cache read.
 * Output tokens are not counted (they enter the context as the next input).
 */
export function contextTokens(usage: ApiUsage | null | undefined): number {
  if (!usage || typeof usage !== "object") return 0;
  const u = lastMainCall(usage) ?? usage;
  return count(u.input_tokens) + count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens);
}

/**
 * A request that consulted another model on the server (an advisor, 2.1.23x) reports each call in
 * `iterations` (`type` `message` for the session's model, `advisor_message` for the advisor), and its
 * top-level counts are their sum: twice the context or more. The context is the session's model's last
 * call. Undefined when there is no such list.
 */
function lastMainCall(usage: ApiUsage): ApiUsage | undefined {
  const calls = usage.iterations;
  if (!Array.isArray(calls) || calls.length < 2) return undefined;
  for (let i = calls.length - 1; i >= Math.max(0, calls.length - 16); i--) {
    const c: unknown = calls[i];
    if (isObject(c) && c.type === "message") return c;
  }
  return undefined;
}

/**
 * The window size when the client does not give one: the configured size, else the window the
 * model's client knows for it (`known`: `modelWindow`, from the adapters' `windowOf`), else 1M for
 * `[1m]` models or once usage has passed 200k; else 200k.
 */
export function windowFor(
  model: string | undefined,
  usedTokens: number,
  configured: number | false,
  known?: number,
): number {
  if (configured !== false && configured > 0) return configured;
  if (known !== undefined && known > 0) return known;
  if (model && /\[1m\]/i.test(model)) return WINDOW_1M;
  return usedTokens > WINDOW_200K ? WINDOW_1M : WINDOW_200K;
}

/** Claude Code's own rounding: `round(used / window * 100)`. */
export function percentOf(usedTokens: number, windowSize: number): number {
  if (!(windowSize > 0)) return 0;
  return Math.max(0, Math.round((usedTokens / windowSize) * 100));
}

/** A reading from token counts. */
export function reading(usedTokens: number, windowSize: number): ContextReading {
  const usedPct = percentOf(usedTokens, windowSize);
  return { usedTokens, windowSize, usedPct, remainingPct: Math.max(0, 100 - usedPct) };
}

/**
 * The share of the window usable before auto-compaction, as GSD displays it:
 * used / (window × (1 − buffer)). For display only; thresholds use the raw figure.
 */
export function usablePct(usedTokens: number, windowSize: number, bufferPct: number): number {
  const usable = windowSize * (1 - Math.min(Math.max(bufferPct, 0), 99) / 100);
  return Math.min(100, percentOf(usedTokens, usable));
}

/**
 * The client's own footer figure ("N% context used"): measured against the
 * window minus the 20k tokens it reserves for output, rounded down
 * (151,050 of 200k shows 83 %, 180,000 shows 100 %). For display only.
 */
export function footerPct(usedTokens: number, windowSize: number): number {
  const effective = windowSize - Math.min(20_000, windowSize / 2);
  return effective > 0 ? Math.min(100, Math.floor((usedTokens / effective) * 100)) : 0;
}

/** Formats a token count the way the status line shows it: 950, 130k, 1.2M. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}
