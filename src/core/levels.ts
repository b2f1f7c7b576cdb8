/**
 * The one ladder of levels, in used %: ok, warning, critical, auto_pause (config `levels.*`).
 * The agent's warnings, the user's messages, the status line colour, `ctx status`, the state
 * files and the summaries all read a level from the one table below. Pure.
 */
import { basisPct, type Scale, scaleOf, scaleText, shownPct, thresholdPct } from "./budget.ts";
import type { Config } from "./config-schema.ts";
import { type Handoff, handoffForAgent } from "./handoff.ts";
import { formatTokens } from "./usage.ts";

/** What a level is, in one row: its default threshold, its colour and the texts the agent and the user read. */
export interface LevelRow {
  /** The default threshold in used % (`levels.<name>`); ok has none. */
  default: number | null;
  /** The ANSI colour: green, yellow, red. */
  colour: string;
  /** The word in capitals, as the agent and the user read it. */
  word: string;
  /** What the agent is told after the figures (empty for ok). */
  agent: string;
  /** What the user reads after the figures when the level is newly crossed (empty for ok). */
  user: string;
}

/** The clause of CRITICAL that says where to save the plan; replaced by the session's own (core/plan-tools.ts). */
const PLAN_CLAUSE = "update the task list with exactly what remains";
const CRITICAL_AGENT =
  "Finish the current step now and leave the work in a resumable state: save or commit your changes, " +
  `${PLAN_CLAUSE}, and do not start anything new.`;

/** The table of levels, lowest first: the only place a level is described. */
export const LEVEL_TABLE = {
  ok: { default: null, colour: "32", word: "OK", agent: "", user: "" },
  warning: {
    default: 65,
    colour: "33",
    word: "WARNING",
    agent:
      "Wrap up the current task: avoid new exploration, large file reads and long outputs, " +
      "and keep your notes and task list current so the work can be resumed.",
    user: "Wrap up the current task; no new exploration.",
  },
  critical: {
    default: 75,
    colour: "31",
    word: "CRITICAL",
    agent: CRITICAL_AGENT,
    user: "The agent is told to finish its step and leave the work resumable.",
  },
  auto_pause: {
    default: 90,
    colour: "31",
    word: "AUTO-PAUSE",
    agent: `Level auto_pause: your actions are being captured for the handoff, and a supervised session is cycled now. ${CRITICAL_AGENT}`,
    user: "Auto-pause: actions are captured for session continuity; a supervised session (ctx respawn) is cycled.",
  },
} as const satisfies Record<string, LevelRow>;

/** A level name, lowest first. */
export type Level = keyof typeof LEVEL_TABLE;

/** A level above ok: one the agent is warned at. */
export type WarnLevel = Exclude<Level, "ok">;

/** The levels from lowest to highest. */
export const LEVELS: readonly Level[] = Object.keys(LEVEL_TABLE) as Level[];

/** The levels above ok, lowest first. */
export const WARN_LEVELS: readonly WarnLevel[] = LEVELS.filter((l): l is WarnLevel => l !== "ok");

/**
 * The thresholds of the levels above ok, as configured: up to 100 a used %, above it tokens (core/budget.ts);
 * `false` switches a level off. `budget` (`context.budget`) makes the % relative to min(window, budget).
 */
export type Ladder = Record<WarnLevel, number | false> & { budget?: number | false };

/** The ladder of a configuration. */
export function ladderOf(cfg: Config): Ladder {
  const rungs = Object.fromEntries(WARN_LEVELS.map((l) => [l, cfg[`levels.${l}`]])) as Ladder;
  return { ...rungs, budget: cfg["context.budget"] };
}

/** A ladder in % of its scale's basis (fractional; tokens converted, none past the auto-compact point). */
export function scaledLadder(t: Ladder, scale: Scale): Ladder {
  return Object.fromEntries(WARN_LEVELS.map((l) => [l, thresholdPct(t[l], scale)])) as Ladder;
}

/** A reading as the levels read it: its tokens, its window and its own used % of the window. */
export interface LevelReading {
  usedTokens: number;
  windowSize: number;
  usedPct: number;
}

/** The scale a reading is measured on under a ladder's budget. */
export function scaleFor(r: LevelReading, t: Ladder): Scale {
  return scaleOf(r.windowSize, t.budget ?? false);
}

/** The level of a reading: its share of min(window, budget) against the ladder in that scale. */
export function levelOfReading(r: LevelReading, t: Ladder): Level {
  if (!(r.windowSize > 0)) return levelAt(r.usedPct, t);
  const scale = scaleFor(r, t);
  return levelAt(basisPct(r.usedTokens, r.usedPct, scale), scaledLadder(t, scale));
}

/** How full the context is, as people read it: `65% of 200k budget · 1M window`, or `65% of 1M window`. */
export function usageWords(r: LevelReading, t: Ladder): string {
  const scale = scaleFor(r, t);
  return `${shownPct(r.usedTokens, r.usedPct, scale)}% of ${scaleText(scale)}`;
}

/** The highest level whose threshold `usedPct` has reached (`ok` below them all); thresholds in % as given. */
export function levelAt(usedPct: number, ladder: Ladder): Level {
  let out: Level = "ok";
  for (const level of WARN_LEVELS) {
    const at = ladder[level];
    if (at !== false && usedPct >= at) out = level;
  }
  return out;
}

/** The rank of a level (0 for ok; -1 for anything that is not a level, null included), for comparisons. */
export function levelRank(level: unknown): number {
  return LEVELS.indexOf(level as Level);
}

/** True for a level above ok (a state file's `threshold_reached`, a debounce's `last_level`). */
export function isWarnLevel(v: unknown): v is WarnLevel {
  return levelRank(v) > 0;
}

/** The ANSI colour of a level. */
export function levelColour(level: Level): string {
  return LEVEL_TABLE[level].colour;
}

/** The level in capitals, as the agent and the user read it: WARNING, CRITICAL, AUTO-PAUSE. */
export function levelWord(level: Level): string {
  return LEVEL_TABLE[level].word;
}

/**
 * The agent's text for a level: `CONTEXT CRITICAL: 80% of the context window is used, 20% remains. …` (under a
 * budget, `… 80% of the 200k context budget is used (1M window) …`, the figures then being shares of the budget).
 * At CRITICAL and above it ends with where the handoff summary stands (`handoff`), never claiming one that does
 * not exist; without `handoff` (a subagent, whose context is not handed off) it says nothing about a summary.
 * `planClause` says how this session saves what remains, with the tools it really has (core/plan-tools.ts).
 */
export function agentText(
  level: WarnLevel,
  usedPct: number,
  remainingPct: number,
  handoff?: Handoff,
  planClause?: string,
  scale?: Scale,
): string {
  // auto_pause is a CRITICAL that says so: the agent knows two words.
  const word = level === "warning" ? "WARNING" : "CRITICAL";
  const advice = planClause ? LEVEL_TABLE[level].agent.replace(PLAN_CLAUSE, planClause) : LEVEL_TABLE[level].agent;
  const of =
    scale && scale.budget !== null
      ? `the ${formatTokens(scale.budget)} context budget is used (${formatTokens(scale.window)} window)`
      : "the context window is used";
  const text = `CONTEXT ${word}: ${usedPct}% of ${of}, ${remainingPct}% remains. ${advice}`;
  return handoff && level !== "warning" ? `${text} ${handoffForAgent(handoff)}` : text;
}

/**
 * The user's message for a newly crossed level, without the handoff: `ctx: context 76% used (152k/200k tokens),
 * CRITICAL. …` (tokens as the status line shows them); under a budget `ctx: context 65% of 200k budget · 1M window
 * used (…), WARNING. …`.
 */
export function userText(
  level: WarnLevel,
  usedPct: number,
  usedTokens: number,
  windowSize: number,
  scale?: Scale,
): string {
  const pct = scale && scale.budget !== null ? `${usedPct}% of ${scaleText(scale)}` : `${usedPct}%`;
  const tokens = `${formatTokens(usedTokens)}/${formatTokens(windowSize)} tokens`;
  return `ctx: context ${pct} used (${tokens}), ${levelWord(level)}. ${LEVEL_TABLE[level].user}`;
}

/** A reading's figures for the texts: its % and remaining % of the basis, and the scale when a budget applies. */
export function textFigures(r: LevelReading, t: Ladder): { usedPct: number; remainingPct: number; scale?: Scale } {
  const scale = scaleFor(r, t);
  if (scale.budget === null) return { usedPct: r.usedPct, remainingPct: Math.max(0, 100 - r.usedPct) };
  const usedPct = shownPct(r.usedTokens, r.usedPct, scale);
  return { usedPct, remainingPct: Math.max(0, 100 - usedPct), scale };
}
