/**
 * `ctx monitor` called by ctx's Claude Code mod (plugin/hooks/register.ts): the payload carries
 * `ctx_mod`, the client's own figure of the newest main-thread request, which is the reading; the
 * ladder, debounce and handoff are the settings hook's own. A session the mod reported for is left
 * to it by the settings hook (whose figure may be a request behind).
 */
import { parseModFigure, type ModFigure, type ModRecord } from "../core/mod/figure.ts";
import type { Config } from "../core/config-schema.ts";
import { shownPct } from "../core/budget.ts";
import { ladderOf, levelOfReading, scaleFor, type Level } from "../core/levels.ts";
import { readModRecord, writeModRecord } from "../io/session/mod-record.ts";
import type { SourcedReading } from "../io/session/usage-source.ts";

/** The mod's call at an idle turn's end (commands/monitor-cycle.ts). */
export const MOD_IDLE_EVENT = "ModIdle";
/** The mod's call once it carried a cycle out, or could not. */
export const MOD_CYCLE_DONE_EVENT = "ModCycleDone";
/** The mod's call once the wait at the usage limit is over. */
export const MOD_LIMIT_EVENT = "ModLimit";
/** The mod's calls about the cycle in the client (commands/monitor-cycle.ts). */
export const MOD_CYCLE_EVENTS: ReadonlySet<unknown> = new Set([MOD_IDLE_EVENT, MOD_CYCLE_DONE_EVENT, MOD_LIMIT_EVENT]);

/** ctx's OpenCode plugin's call as a compaction starts (commands/monitor-summary.ts). */
export const MOD_SUMMARY_EVENT = "ModSummary";

/** The event of a mod's call that only records the figure of a request (`turn.step`), no tool use. */
export const MOD_STEP_EVENT = "ModStep";

/** What the mod's payload means for this monitor call. */
export type ModTake =
  /** No mod figure, and no mod reported for the session: the settings hook reads as always. */
  | { kind: "none" }
  /** A mod reports for the session and this call is the settings hook's: the mod warns; its newest figure is the reading. */
  | { kind: "stand-down"; reading: SourcedReading }
  /** The mod's own call: its figure is the reading. */
  | { kind: "mod"; figure: ModFigure; reading: SourcedReading };

/** Reads the `ctx_mod` of `input`: records it, or says whether the settings hook stands down. */
export function modTake(input: Record<string, unknown>, root: string, sessionId: string, now: number): ModTake {
  const figure = parseModFigure(input.ctx_mod);
  if (!figure) {
    const rec = readModRecord(root, sessionId, now);
    return rec ? { kind: "stand-down", reading: recordReading(rec) } : { kind: "none" };
  }
  return { kind: "mod", figure, reading: recordReading(writeModRecord(root, sessionId, figure, now)) };
}

/** A mod record as a reading: the client's own figure. */
export function recordReading(rec: ModRecord): SourcedReading {
  return {
    source: "client",
    windowSource: "statusline",
    usedTokens: rec.used_tokens,
    windowSize: rec.window,
    usedPct: rec.used_pct,
    remainingPct: Math.max(0, 100 - rec.used_pct),
    ...(rec.model ? { model: rec.model } : {}),
  };
}

/**
 * The answer the mod reads beside the hook output: the figure it shows the user, and its level, both of
 * min(window, budget) as the status line and the agent's messages have them (76 % of a 200k budget, not 15 %
 * of a 1M window).
 */
export function modAnswer(
  reading: SourcedReading | undefined,
  cfg: Config,
): { used_pct: number; level: Level } | undefined {
  if (!reading) return undefined;
  const ladder = ladderOf(cfg);
  const scale = scaleFor(reading, ladder);
  return { used_pct: shownPct(reading.usedTokens, reading.usedPct, scale), level: levelOfReading(reading, ladder) };
}
