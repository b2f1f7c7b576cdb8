/**
 * The figures ctx's Claude Code mod hands to ctx (plugin/hooks/register.ts): the client's own
 * count of the newest main-thread request and its window, as `ctx_mod` beside a hook payload,
 * and the record `ctx monitor` keeps of them (`state/monitor/<sid>.mod.json`). Pure.
 */
import { isObject } from "../json.ts";
import { count, reading, type ContextReading } from "../usage.ts";

/** `ctx_mod` of a payload the mod sends: its version, the request's tokens and the window the client reports. */
export interface ModFigure {
  v: 1;
  /** Input + cache creation + cache read of the newest main-thread request (`turn.step`'s usage). */
  tokens: number;
  /** The window `$.session.usage().context.window` reports. */
  window: number;
  /** The request's model. */
  model?: string;
}

/** What `ctx monitor` keeps of the newest figure a mod gave: a session under a live mod. */
export interface ModRecord {
  v: 1;
  used_tokens: number;
  window: number;
  used_pct: number;
  model: string | null;
  /** When it was written, in ms since the epoch. */
  at: number;
}

/** `ctx_mod` of a payload as a figure, or undefined when it is not one (a zero window included). */
export function parseModFigure(v: unknown): ModFigure | undefined {
  if (!isObject(v) || v.v !== 1) return undefined;
  const window = count(v.window);
  if (window === 0 || typeof v.tokens !== "number") return undefined;
  const model = typeof v.model === "string" && /^[\w.:[\]@/-]{1,100}$/.test(v.model) ? v.model : undefined;
  return { v: 1, tokens: count(v.tokens), window, ...(model ? { model } : {}) };
}

/** The reading of a mod's figure: ctx's one rounding of the used share. */
export function modReading(f: Pick<ModFigure, "tokens" | "window">): ContextReading {
  return reading(f.tokens, f.window);
}

/** The record of a figure read at `nowMs`. */
export function modRecord(f: ModFigure, nowMs: number): ModRecord {
  const r = modReading(f);
  return {
    v: 1,
    used_tokens: r.usedTokens,
    window: r.windowSize,
    used_pct: r.usedPct,
    model: f.model ?? null,
    at: nowMs,
  };
}

/** A record read back (a readState parse), or undefined when it is not one. */
export function parseModRecord(v: unknown): ModRecord | undefined {
  if (!isObject(v) || v.v !== 1 || typeof v.at !== "number" || !Number.isFinite(v.at)) return undefined;
  const f = parseModFigure({ v: 1, tokens: v.used_tokens, window: v.window, model: v.model ?? undefined });
  return f ? { ...modRecord(f, v.at) } : undefined;
}
