/**
 * The one ladder of levels, in used %: ok, warning, critical, auto_pause (config `levels.*`).
 * The agent's warnings, the user's messages, the status line colour, `ctx status`, the state
 * files and the summaries all name a figure with the same word. Pure.
 */
import type { Config } from "./config-schema.ts";

/** A level name, lowest first. */
export type Level = "ok" | "warning" | "critical" | "auto_pause";

/** The levels from lowest to highest. */
export const LEVELS: readonly Level[] = ["ok", "warning", "critical", "auto_pause"];

/** The thresholds of the levels above ok, in used %; `false` switches a level off. */
export interface Ladder {
  warning: number | false;
  critical: number | false;
  auto_pause: number | false;
}

/** The ladder of a configuration. */
export function ladderOf(cfg: Config): Ladder {
  return { warning: cfg["levels.warning"], critical: cfg["levels.critical"], auto_pause: cfg["levels.auto_pause"] };
}

/** The highest level whose threshold `usedPct` has reached (`ok` below them all). */
export function levelAt(usedPct: number, ladder: Ladder): Level {
  let out: Level = "ok";
  for (const level of LEVELS) {
    if (level === "ok") continue;
    const at = ladder[level];
    if (at !== false && usedPct >= at) out = level;
  }
  return out;
}

/** The rank of a level (0 for ok; -1 for anything that is not a level), for comparisons. */
export function levelRank(level: unknown): number {
  return LEVELS.indexOf(level as Level);
}

/** The ANSI colour of a level: green, yellow, then red. */
export function levelColour(level: Level): string {
  return level === "ok" ? "32" : level === "warning" ? "33" : "31";
}

/** The level in capitals, as the agent and the user read it: WARNING, CRITICAL, AUTO-PAUSE. */
export function levelWord(level: Level): string {
  return level === "auto_pause" ? "AUTO-PAUSE" : level.toUpperCase();
}
