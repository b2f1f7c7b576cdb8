import type { Level } from "./state.ts";

/** The four levels' thresholds in used %, `false` for a level switched off. */
export interface Thresholds {
  caution: number | false;
  warning: number | false;
  auto_pause: number | false;
  critical: number | false;
}

/** Levels from lowest to highest. */
export const LEVELS: readonly Level[] = ["caution", "warning", "auto_pause", "critical"];

/** What the user reads when a level is newly crossed (claude-mpm's wording, with the real figure). */
const MESSAGES: Record<Level, string> = {
  caution: "Consider wrapping up current work.",
  warning: "Session nearing capacity.",
  auto_pause: "Auto-pause activated: actions are being recorded for session continuity.",
  critical:
    "Session nearly exhausted. Wrap up now; the handoff summary is written when the session ends (or now, with ctx finalize).",
};

/** The highest level whose threshold `usedPct` has reached, or null. */
export function levelFor(usedPct: number, t: Thresholds): Level | null {
  let out: Level | null = null;
  for (const level of LEVELS) {
    const at = t[level];
    if (at !== false && usedPct >= at) out = level;
  }
  return out;
}

/** The rank of a level (-1 for none), for comparisons. */
export function rank(level: Level | null): number {
  return level === null ? -1 : LEVELS.indexOf(level);
}

/**
 * The level to report now: the current level when it is higher than the one
 * reached before (reported once per crossing), else null. A drop (compaction,
 * /clear) lowers the reached level, so crossing again reports again.
 */
export function newlyCrossed(previous: Level | null, current: Level | null): Level | null {
  return rank(current) > rank(previous) ? current : null;
}

/** The message shown for a newly crossed level. */
export function levelMessage(level: Level, usedPct: number, usedTokens: number, windowSize: number): string {
  const name = level === "auto_pause" ? "AUTO-PAUSE" : level.toUpperCase();
  return `ctx: context ${usedPct}% used (${usedTokens}/${windowSize} tokens), ${name}. ${MESSAGES[level]}`;
}
