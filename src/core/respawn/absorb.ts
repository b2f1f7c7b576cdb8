/**
 * What every phase of the machine keeps track of, before the phase itself
 * looks at the event: the screen, the latest Stop hook, the usage reading and
 * its no-progress check, the summary a finalize wrote.
 */
import { checkProgress } from "./brakes.ts";
import type { RespawnAction, RespawnEvent, RespawnState, Transition } from "./types.ts";

/** Bookkeeping common to every phase: the screen, the Stop hook, usage and the no-progress check, the summary. */
export function absorb(state: RespawnState, event: RespawnEvent, now: number): Transition {
  if (event.type === "screen") {
    const { screen, changed } = event;
    const c = state.cycle;
    const cycle = c ? { ...c, sawBusy: c.sawBusy || screen.busy, sawChange: c.sawChange || changed } : null;
    return {
      state: {
        ...state,
        screen,
        cycle,
        lastChangeAt: changed ? now : state.lastChangeAt,
        lastBusyAt: screen.busy ? now : state.lastBusyAt,
      },
      actions: [],
    };
  }
  if (event.type === "stop_hook") {
    // A turn that went through outside a limit: the next limit counts from one again.
    const limitRepeat = state.phase === "limited" ? state.limitRepeat : 0;
    return { state: { ...state, lastStopAt: Math.max(event.at, state.lastStopAt ?? 0), limitRepeat }, actions: [] };
  }
  if (event.type === "finalize_done")
    return {
      state,
      actions: event.summaryPath ? [{ type: "record", event: "summary", detail: event.summaryPath }] : [],
    };
  if (event.type === "usage_window") return { state: { ...state, usageWindow: event.window }, actions: [] };
  if (event.type !== "usage") return { state, actions: [] };
  const changedAt = state.usage?.pct === event.pct ? state.usageChangedAt : now;
  const progress = checkProgress(state, event.pct, event.at);
  const s = { ...state, ...progress, usage: { pct: event.pct, at: event.at }, usageChangedAt: changedAt };
  const actions: RespawnAction[] = [];
  if (state.awaitingProgress && !progress.awaitingProgress && state.lastCycle?.trigger != null) {
    actions.push({
      type: "record",
      event: "progress",
      detail: `${event.pct}% after ${state.lastCycle.kind} (trigger ${state.lastCycle.trigger}%), no-progress count ${progress.noProgress}`,
    });
  }
  return { state: s, actions };
}
