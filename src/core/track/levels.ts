import { type Handoff, handoffForUser } from "../handoff.ts";
import { levelAt, levelRank, levelWord, type Ladder } from "../levels.ts";
import type { Level } from "./state.ts";

/** Levels above ok, lowest first. */
export const LEVELS: readonly Level[] = ["warning", "critical", "auto_pause"];

/** What the user reads when a level is newly crossed, with the real figure. */
const MESSAGES: Record<Level, string> = {
  warning: "Wrap up the current task; no new exploration.",
  critical: "The agent is told to finish its step and leave the work resumable.",
  auto_pause: "Auto-pause: actions are captured for session continuity; a supervised session (ctx respawn) is cycled.",
};

/** The highest level whose threshold `usedPct` has reached, or null below the warning level. */
export function levelFor(usedPct: number, t: Ladder): Level | null {
  const level = levelAt(usedPct, t);
  return level === "ok" ? null : level;
}

/** The rank of a level (-1 for none, or a word that is no level any more), for comparisons. */
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

/**
 * The message shown for a newly crossed level: `ctx: context 76% used (…), CRITICAL. …`; at CRITICAL and above,
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
): string {
  const text = `ctx: context ${usedPct}% used (${usedTokens}/${windowSize} tokens), ${levelWord(level)}. ${MESSAGES[level]}`;
  return handoff && level !== "warning"
    ? `${text} Handoff: ${handoffForUser(handoff)}. ${userNextStep(handoff, supervised)}`
    : text;
}

/**
 * What the user does now, at CRITICAL and above: nothing under `ctx respawn`; else `/clear` once the agent has
 * finished its step (the resume hook injects the summary, waiting for one still being written), or
 * `ctx resume --latest`; when the summary could not be written, the work is saved first.
 */
export function userNextStep(handoff: Handoff, supervised: boolean): string {
  if (supervised)
    return "You: nothing to do, ctx respawn supervises this session and continues it in a fresh context when it is idle.";
  if (handoff.state === "failed")
    return "You: have the agent note what remains and commit, then type /clear to continue in a fresh context.";
  return (
    "You: when the agent has finished its step, type /clear; the fresh session starts from the summary " +
    "(or quit and run 'ctx resume --latest')."
  );
}

/** True for a level of the ladder above ok (a state file's `threshold_reached`). */
export function isTrackLevel(v: unknown): v is Level {
  return levelRank(v) > 0;
}
