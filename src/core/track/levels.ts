import { isWarnLevel, levelAt, levelRank, userText, type Ladder, type WarnLevel } from "../levels.ts";

/** A level of the ladder above ok, as track records it. */
type Level = WarnLevel;

/** The highest level whose threshold `usedPct` has reached, or null below the warning level. */
export function levelFor(usedPct: number, t: Ladder): Level | null {
  const level = levelAt(usedPct, t);
  return level === "ok" ? null : level;
}

/**
 * The level to report now: the current level when it is higher than the one
 * reached before (reported once per crossing), else null. A drop (compaction,
 * /clear) lowers the reached level, so crossing again reports again.
 */
export function newlyCrossed(previous: Level | null, current: Level | null): Level | null {
  return levelRank(current) > levelRank(previous) ? current : null;
}

/** The message shown for a newly crossed level (the table's user text, core/levels.ts). */
export const levelMessage = userText;

/** True for a level of the ladder above ok (a state file's `threshold_reached`). */
export const isTrackLevel = isWarnLevel;
