/** The brakes: hourly cap, cooldown and the no-progress breaker. */
import { waitText } from "../rate-limits.ts";
import type { RespawnAction, RespawnState } from "./types.ts";

const HOUR_MS = 3_600_000;

/** Cycles in a row with usage back at the trigger after which cycling stops. */
export const NO_PROGRESS_LIMIT = 2;

/** A brake holding a cycle back: `wait` passes with time, `halt` stops cycling for good. */
export interface Brake {
  /** `wait` (cooldown, hourly cap) or `halt` (no progress). */
  kind: "wait" | "halt";
  /** A short machine-readable name. */
  name: "cooldown" | "max_cycles_per_hour" | "no_progress" | "usage_window";
  /** What the user is told (the driver shows it as `ctx respawn: <message>`). */
  message: string;
}

/** The brake that stops a cycle from starting now, or null when it may start. */
export function activeBrake(state: RespawnState, now: number): Brake | null {
  const s = state.settings;
  if (state.noProgress >= NO_PROGRESS_LIMIT) {
    return {
      kind: "halt",
      name: "no_progress",
      message: `usage was back at ${state.usage?.pct ?? "?"}% right after ${state.noProgress} cycles in a row; cycling stopped. Reduce what the session loads at start (CLAUDE.md, the summary) or raise respawn.restart_at, then restart the supervisor.`,
    };
  }
  const recent = recentStarts(state.cycleStarts, now);
  if (recent.length >= s.maxCyclesPerHour) {
    return {
      kind: "wait",
      name: "max_cycles_per_hour",
      message: `${recent.length} cycles in the last hour (respawn.max_cycles_per_hour); waiting.`,
    };
  }
  const w = state.usageWindow;
  if (w && w.resetsMs !== null && now < w.resetsMs)
    return { kind: "wait", name: "usage_window", message: `${waitText("cycle", w)}.` };
  if (now < state.cooldownUntil) {
    return {
      kind: "wait",
      name: "cooldown",
      message: `cooling down for ${Math.ceil((state.cooldownUntil - now) / 1000)} s.`,
    };
  }
  return null;
}

/** Cycle start times within the last hour. */
export function recentStarts(starts: number[], now: number): number[] {
  return starts.filter((t) => now - t < HOUR_MS);
}

/**
 * Applies the no-progress check to the first fresh usage reading after a cycle:
 * usage back at the cycle's trigger counts one more cycle without progress,
 * anything lower resets the count.
 */
export function checkProgress(
  state: RespawnState,
  pct: number,
  at: number,
): Pick<RespawnState, "awaitingProgress" | "noProgress"> {
  const last = state.lastCycle;
  if (!state.awaitingProgress || !last || at <= last.freshAfter)
    return { awaitingProgress: state.awaitingProgress, noProgress: state.noProgress };
  if (last.trigger === null) return { awaitingProgress: false, noProgress: state.noProgress };
  return { awaitingProgress: false, noProgress: pct >= last.trigger ? state.noProgress + 1 : 0 };
}

/**
 * A compaction the client refused ("Not enough messages to compact.") or that
 * changed nothing writes no reading newer than itself, and an idle session
 * writes none either. Once `progressWaitMs` has passed since the compaction
 * ended without one, the latest reading decides the no-progress check instead.
 * Returns the settled state and what to record, or null while still waiting.
 */
export function settleProgress(
  state: RespawnState,
  now: number,
): { state: RespawnState; actions: RespawnAction[] } | null {
  const last = state.lastCycle;
  if (!state.awaitingProgress || !state.usage || last?.kind !== "compact" || last.trigger === null) return null;
  if (now - last.endedAt < state.settings.progressWaitMs) return null;
  const pct = state.usage.pct;
  const noProgress = pct >= last.trigger ? state.noProgress + 1 : 0;
  const waited = Math.round(state.settings.progressWaitMs / 1000);
  return {
    state: { ...state, awaitingProgress: false, noProgress },
    actions: [
      {
        type: "record",
        event: "progress",
        detail: `${pct}% after compact (trigger ${last.trigger}%; no newer reading within ${waited} s, the latest decides), no-progress count ${noProgress}`,
      },
    ],
  };
}
