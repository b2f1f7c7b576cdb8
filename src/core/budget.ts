/**
 * The context budget: what the ladder of levels is measured against. A level is given in used %
 * (a number up to 100) or in tokens (`130k`, `1.2M`, or a number above 100); `context.budget`
 * makes the whole ladder relative to min(window, budget); and no level lands after the point
 * where the client compacts by itself: window − min(max output, 20k) − 13k (docs/budget.md). Pure.
 */
import { formatTokens } from "./usage.ts";

/** What one reading's levels are measured against. */
export interface Scale {
  /** The context window in tokens. */
  window: number;
  /** The budget, when it applies (set and below the window); else null. */
  budget: number | null;
  /** min(window, budget): what a level in % is a share of. */
  basis: number;
  /** The client's own auto-compact point: no level lands after it. */
  ceiling: number;
}

/** What the client keeps free for output (at most 20k) and its auto-compact buffer (13k), in tokens. */
const OUTPUT_RESERVE_MAX = 20_000;
const AUTOCOMPACT_BUFFER = 13_000;

/** A level up to this is a used %; above it, a token count. */
export const PERCENT_MAX = 100;

/** The smallest level in tokens: between 100 and this a number is a mistake (`200` meant neither). */
export const LEVEL_TOKENS_MIN = 1000;

/**
 * Where the client compacts by itself: window − min(max output, 20k) − 13k (Claude Code's proactive
 * threshold, read in its binary: 167k of 200k, 967k of 1M). A window too small for it keeps its size.
 */
export function autoCompactAt(window: number, maxOutput = OUTPUT_RESERVE_MAX): number {
  const at = window - Math.min(Math.max(0, maxOutput), OUTPUT_RESERVE_MAX) - AUTOCOMPACT_BUFFER;
  return at > window / 2 ? at : window;
}

/** The scale of a window under a budget (`false`: none). */
export function scaleOf(window: number, budget: number | false, maxOutput?: number): Scale {
  const applies = budget !== false && budget > PERCENT_MAX && budget < window;
  const basis = applies ? budget : window;
  return { window, budget: applies ? budget : null, basis, ceiling: autoCompactAt(window, maxOutput) };
}

/** A level's threshold in tokens under a scale: a % of the basis or a token count, never past the ceiling. */
export function thresholdTokens(value: number | false, scale: Scale): number | false {
  if (value === false) return false;
  const tokens = value > PERCENT_MAX ? value : (value / 100) * scale.basis;
  return Math.min(tokens, scale.ceiling);
}

/** A threshold as a share of the basis, in % (fractional): what a reading's basis % is compared with. */
export function thresholdPct(value: number | false, scale: Scale): number | false {
  const tokens = thresholdTokens(value, scale);
  return tokens === false || !(scale.basis > 0) ? tokens : (tokens / scale.basis) * 100;
}

/**
 * A reading's used share of the basis, in %. Under a budget it is exact (tokens / budget); without one it is
 * the reading's own figure (the client's `used_percentage`, Codex CLI's UI formula), so nothing else moves.
 */
export function basisPct(usedTokens: number, usedPct: number, scale: Scale): number {
  if (scale.budget === null || !(scale.basis > 0)) return usedPct;
  return (usedTokens / scale.basis) * 100;
}

/** The basis % rounded for people: `130,000 of a 200k budget` is 65. */
export function shownPct(usedTokens: number, usedPct: number, scale: Scale): number {
  return Math.max(0, Math.round(basisPct(usedTokens, usedPct, scale)));
}

/** What the figure is a share of: `200k budget · 1M window`, or `1M window` without a budget. */
export function scaleText(scale: Scale): string {
  const window = `${formatTokens(scale.window)} window`;
  return scale.budget === null ? window : `${formatTokens(scale.budget)} budget · ${window}`;
}

/** A token amount as written in config or on a command line: `200k`, `1.2M`, `130000`; undefined when not one. */
export function parseTokens(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([km])?(?:\s*tokens?)?$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = m[2]?.toLowerCase();
  const n = Number(m[1]) * (unit === "k" ? 1000 : unit === "m" ? 1_000_000 : 1);
  return Number.isFinite(n) ? Math.round(n) : undefined;
}

/**
 * A level as written: `65` or `65%` (used %), `130k` / `130000` (tokens; a token count must be above 100).
 * Undefined when it is neither.
 */
export function parseLevel(text: string): number | undefined {
  const t = text.trim();
  const pct = /^(\d+(?:\.\d+)?)\s*%$/.exec(t);
  if (pct) {
    const n = Number(pct[1]);
    return n <= PERCENT_MAX ? n : undefined;
  }
  const tokens = parseTokens(t);
  if (tokens === undefined) return undefined;
  // a suffix says tokens: `0.05k` (50 tokens) is no level, not 50 %
  if (/[km]/i.test(t)) return tokens >= LEVEL_TOKENS_MIN ? tokens : undefined;
  return levelInRange(tokens);
}

/** A level as a number: a used % up to 100, a token count from 1000; anything between (or below 0) is none. */
export function levelInRange(n: number): number | undefined {
  return n >= 0 && (n <= PERCENT_MAX || n >= LEVEL_TOKENS_MIN) ? n : undefined;
}

/** A level's value for people: `65%` or `130k`. */
export function levelValueText(value: number | false): string {
  if (value === false) return "off";
  return value > PERCENT_MAX ? formatTokens(value) : `${value}%`;
}
