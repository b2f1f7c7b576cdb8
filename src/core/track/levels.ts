import { type Handoff, handoffForUser } from "../handoff.ts";
import type { Scale } from "../budget.ts";
import {
  isWarnLevel,
  type LevelReading,
  levelOfReading,
  levelRank,
  userText,
  type Ladder,
  type WarnLevel,
} from "../levels.ts";
import { shellQuote } from "../shell.ts";

/** A level of the ladder above ok, as track records it. */
type Level = WarnLevel;

/** The highest level a reading has reached (its share of min(window, budget)), or null below the warning level. */
export function levelFor(r: LevelReading, t: Ladder): Level | null {
  const level = levelOfReading(r, t);
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

/**
 * The message shown for a newly crossed level (the table's user text, core/levels.ts); at CRITICAL and above,
 * with where the handoff summary stands (`handoff`), so it never claims a summary that does not exist, and
 * what the user does now (`supervised`: a `ctx respawn` supervisor watches the session).
 */
export function levelMessage(
  level: Level,
  usedPct: number,
  usedTokens: number,
  windowSize: number,
  handoff?: Handoff,
  supervised = false,
  scale?: Scale,
): string {
  const text = userText(level, usedPct, usedTokens, windowSize, scale);
  return handoff && level !== "warning"
    ? `${text} Handoff: ${handoffForUser(handoff)}. ${userNextStep(handoff, supervised)}`
    : text;
}

/**
 * What the user does now, at CRITICAL and above: nothing under `ctx respawn`; else `/clear` once the agent has
 * finished its step (the resume hook injects the summary, waiting for one still being written), or
 * `ctx resume <the summary's path>` (`--latest` when no path is known); when the summary could not be
 * written, the work is saved first.
 */
export function userNextStep(handoff: Handoff, supervised: boolean): string {
  if (supervised)
    return "You: nothing to do, ctx respawn supervises this session and continues it in a fresh context when it is idle.";
  if (handoff.state === "failed")
    return "You: have the agent note what remains and commit, then type /clear to continue in a fresh context.";
  // the exact summary when its path is known (written, or planned by the crossing's finalize)
  const path = handoff.path ? shellQuote(handoff.path) : undefined;
  return (
    "You: when the agent has finished its step, type /clear; the fresh session starts from the summary " +
    `(or quit and run 'ctx resume ${path ?? "--latest"}'${path ? "" : " in this terminal"}).`
  );
}

/** True for a level of the ladder above ok (a state file's `threshold_reached`). */
export const isTrackLevel = isWarnLevel;
