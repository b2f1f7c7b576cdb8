/**
 * What every phase of the machine keeps track of, before the phase itself
 * looks at the event: the screen, the latest Stop hook, the usage reading and
 * its no-progress check, the summary a finalize wrote.
 */
import { checkProgress } from "./brakes.ts";
import type { Blocker } from "../screen.ts";
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
      actions: [...holdRecord(state, screen.blocker), ...draftHold(state, screen.draft === true)],
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

// --- internal ---

const DIALOGS: Record<Blocker, string> = {
  permission: "a permission dialog",
  question: "a question",
  plan: "a plan-approval dialog",
  limit: "the usage-limit menu",
};

/** A dialog that just opened holds the supervisor: the record says which (the limit has its own events). */
function holdRecord(state: RespawnState, blocker: Blocker | undefined): RespawnAction[] {
  if (!blocker || blocker === state.screen?.blocker || blocker === "limit") return [];
  const then =
    blocker === "plan" && state.settings.autoAcceptPlans
      ? "Enter after the quiet period (auto_accept_plans)"
      : "nothing is typed until it closes";
  return [{ type: "record", event: "hold", detail: `${DIALOGS[blocker]} is open: ${then}` }];
}

/**
 * A draft in the input box while a cycle is due (usage at `compact_at` or `restart_at`) holds the
 * supervisor, which never types over the user's words: recorded once, when the draft appears. Inside
 * a cycle the text in the box is the step the supervisor is typing (`/clear` before its Enter), not a draft.
 */
function draftHold(state: RespawnState, draft: boolean): RespawnAction[] {
  if (!draft || state.cycle || state.screen?.draft === true || !state.usage) return [];
  const due = [state.settings.compactAt, state.settings.restartAt].filter((t): t is number => t !== false);
  if (!due.some((t) => state.usage!.pct >= t)) return [];
  const detail = `a draft is in the input box at ${state.usage.pct}%: nothing is typed until it is sent or cleared`;
  return [{ type: "record", event: "hold", detail }];
}
