/**
 * Safe bounds of the keys that make ctx act (type into the pane, clear, prune, wait), whatever file
 * sets them, and the direction in which each is more careful: a project file the user has not
 * trusted may only move a key that way. Pure. The ranges are documented in docs/configuration.md.
 */
import type { Config, ConfigKey } from "./config-schema.ts";
import { LEVEL_TABLE } from "./levels.ts";

/** A key's range: a number, or another key's value (`levels.critical`) as the least. */
interface Range {
  min: number | "levels.critical";
  max?: number;
  /** `up`: a larger value (or `off`) acts later or less often; `down`: a smaller one does. */
  careful: "up" | "down";
}

/** The bounded keys and their ranges (a threshold's `off` is always allowed: it never acts). */
export const BOUNDS: Readonly<Partial<Record<ConfigKey, Range>>> = {
  "respawn.restart_at": { min: "levels.critical", max: 100, careful: "up" },
  "respawn.compact_at": { min: "levels.critical", max: 100, careful: "up" },
  "respawn.poll_ms": { min: 250, max: 10_000, careful: "up" },
  "respawn.limit_margin_s": { min: 0, max: 3600, careful: "up" },
  "respawn.cooldown_s": { min: 10, max: 86_400, careful: "up" },
  "respawn.max_cycles_per_hour": { min: 0, max: 60, careful: "down" },
  "respawn.quiet_ms": { min: 500, max: 60_000, careful: "up" },
  "respawn.silence_s": { min: 5, max: 3600, careful: "up" },
  "retention.max_age_days": { min: 1, careful: "up" },
  "retention.keep_per_chain": { min: 1, careful: "up" },
  "retention.interval_h": { min: 1, careful: "up" },
};

/** A value a file set that was moved into its key's range. */
export interface Clamp {
  key: ConfigKey;
  /** What the file said. */
  from: number;
  /** What ctx uses. */
  to: number;
  /** Why, in a few words: `not below levels.critical (75)`. */
  why: string;
}

/** True for a key with safe bounds. */
export function isBounded(key: string): boolean {
  return key in BOUNDS;
}

/**
 * True when `next` makes ctx act no sooner and no more often than `current` for a bounded key
 * (a threshold's `off`, never acting, is the most careful); always true for any other key.
 */
export function asCareful(key: string, next: unknown, current: unknown): boolean {
  const range = BOUNDS[key as ConfigKey];
  if (!range) return true;
  const n = next === false ? Infinity : Number(next);
  const c = current === false ? Infinity : Number(current);
  return range.careful === "up" ? n >= c : n <= c;
}

/** Moves every bounded key that `fromFile` says a file set into its range; returns what moved. */
export function clampBounds(config: Config, fromFile: (key: ConfigKey) => boolean): Clamp[] {
  const cfg = config as Record<string, unknown>;
  const out: Clamp[] = [];
  for (const [key, range] of Object.entries(BOUNDS) as [ConfigKey, Range][]) {
    const v = cfg[key];
    if (typeof v !== "number" || !fromFile(key)) continue;
    const critical = config["levels.critical"];
    const min =
      range.min === "levels.critical" ? (critical === false ? LEVEL_TABLE.critical.default : critical) : range.min;
    const minText = range.min === "levels.critical" ? `levels.critical (${min})` : String(min);
    if (v < min) out.push({ key, from: v, to: min, why: `not below ${minText}` });
    else if (range.max !== undefined && v > range.max)
      out.push({ key, from: v, to: range.max, why: `not above ${range.max}` });
    else continue;
    cfg[key] = out.at(-1)!.to;
  }
  return out;
}
