/** The cycling phase: send each step, wait for it to be confirmed, recover on timeouts. */
import { quietAtPrompt } from "./idle.ts";
import type { Choice } from "./plan.ts";
import { buildSteps } from "./plan.ts";
import type { Cycle, RespawnAction, RespawnEvent, RespawnState, Step, Transition } from "./types.ts";

/** A step still unconfirmed after this long with text left in the input box gets Enter once more. */
const RETRY_ENTER_MIN_MS = 5000;

/** Starts a cycle: records its start (hourly cap) and sends its first step. */
export function startCycle(state: RespawnState, choice: Choice, now: number): Transition {
  const steps = buildSteps(choice.kind, state.settings);
  const cycle: Cycle = {
    kind: choice.kind,
    steps,
    index: 0,
    startedAt: now,
    stepStartedAt: now,
    sawBusy: false,
    sawChange: false,
    retried: false,
    trigger: choice.trigger,
    resetAt: null,
    summaryPath: null,
  };
  const s: RespawnState = {
    ...state,
    phase: "cycling",
    phaseSince: now,
    cycle,
    brake: null,
    cycleStarts: [...state.cycleStarts, now],
  };
  const detail = `${choice.kind} at ${state.usage ? `${state.usage.pct}%` : "?"}: ${steps.map((x) => x.kind).join(", ") || "no steps"}`;
  const rec: RespawnAction = { type: "record", event: "cycle_start", detail };
  if (steps.length === 0) return finish(s, now, [rec]);
  const next = sendStep(s, now);
  return { state: next.state, actions: [rec, ...next.actions] };
}

/** Handles one event while cycling. */
export function onCycling(state: RespawnState, event: RespawnEvent, now: number): Transition {
  const cycle = state.cycle!;
  const step = cycle.steps[cycle.index]!;
  const s = state.settings;
  if (now - cycle.startedAt > s.stuckTimeoutMs)
    return abort(state, now, `stuck in ${step.kind} for ${Math.round((now - cycle.startedAt) / 1000)} s`);
  if (step.kind === "finalize") {
    if (event.type === "finalize_done")
      return event.ok
        ? advance({ ...state, cycle: { ...cycle, summaryPath: event.summaryPath ?? null } }, now)
        : abort(state, now, `ctx finalize failed${event.detail ? `: ${event.detail}` : ""}`);
    return now - cycle.stepStartedAt > s.stepTimeoutMs ? abort(state, now, "ctx finalize timed out") : stay(state);
  }
  if (confirmed(state, step, now)) {
    const reset = step.kind === "compact" || step.kind === "clear" ? now : cycle.resetAt;
    return advance({ ...state, cycle: { ...cycle, resetAt: reset } }, now);
  }
  const elapsed = now - cycle.stepStartedAt;
  const sc = state.screen;
  const textLeft = sc !== null && !sc.busy && !sc.blocker && !sc.prompt && !cycle.sawBusy;
  if (!cycle.retried && textLeft && elapsed > Math.max(RETRY_ENTER_MIN_MS, 3 * s.quietMs)) {
    const next = { ...state, cycle: { ...cycle, retried: true, stepStartedAt: now } };
    return {
      state: next,
      actions: [
        { type: "send_keys", keys: ["Enter"] },
        { type: "record", event: "retry_enter", detail: step.kind },
      ],
    };
  }
  return elapsed > s.stepTimeoutMs
    ? abort(state, now, `step ${step.kind} not confirmed within ${Math.round(s.stepTimeoutMs / 1000)} s`)
    : stay(state);
}

/** Ends the cycle in progress without finishing it (stop, recovery). */
export function abort(state: RespawnState, now: number, reason: string): Transition {
  const c = state.cycle;
  const s: RespawnState = {
    ...ended(state, now),
    awaitingProgress: false,
    lastCycle: c ? { kind: c.kind, endedAt: now, trigger: c.trigger, ok: false, freshAfter: now } : state.lastCycle,
  };
  return {
    state: s,
    actions: [
      { type: "record", event: "cycle_aborted", detail: reason },
      { type: "notify", message: `cycle abandoned: ${reason}` },
    ],
  };
}

/** A newline typed into the input box would submit half the prompt: one line only. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}

// --- internal ---

function stay(state: RespawnState): Transition {
  return { state, actions: [] };
}

/** Back to watching after a cycle, finished or not: its idle is spent and the cooldown starts. */
function ended(state: RespawnState, now: number): RespawnState {
  const cooldownUntil = now + state.settings.cooldownMs;
  return { ...state, phase: "watching", phaseSince: now, cycle: null, handledAt: now, cooldownUntil };
}

/**
 * A typed step is confirmed once the client took it and is idle again:
 * busy seen, the screen changed or a Stop hook came, then the empty prompt
 * and a quiet period. The kickstart only needs to be taken: the agent then works.
 */
function confirmed(state: RespawnState, step: Step, now: number): boolean {
  const c = state.cycle!;
  const stopped = state.lastStopAt !== null && state.lastStopAt > c.stepStartedAt;
  if (step.kind === "kickstart" && (c.sawBusy || stopped)) return true;
  if (!(c.sawBusy || c.sawChange || stopped)) return false;
  return now - c.stepStartedAt >= state.settings.quietMs && quietAtPrompt(state, now);
}

function advance(state: RespawnState, now: number): Transition {
  const c = state.cycle!;
  const done: RespawnAction = { type: "record", event: "step_done", detail: c.steps[c.index]!.kind };
  if (c.index + 1 >= c.steps.length) return finish(state, now, [done]);
  const next = sendStep({ ...state, cycle: { ...c, index: c.index + 1 } }, now);
  return { state: next.state, actions: [done, ...next.actions] };
}

function sendStep(state: RespawnState, now: number): Transition {
  const c = state.cycle!;
  const step = c.steps[c.index]!;
  const s: RespawnState = {
    ...state,
    handledAt: now,
    cycle: { ...c, stepStartedAt: now, sawBusy: false, sawChange: false, retried: false },
  };
  const acts: RespawnAction[] =
    step.kind === "finalize" ? [{ type: "finalize" }] : [{ type: "send_text", text: oneLine(step.text ?? "") }];
  // The summary must be waiting before /clear starts the session whose SessionStart injects it.
  if (step.kind === "clear" && c.summaryPath) acts.unshift({ type: "handover", summaryPath: c.summaryPath });
  return { state: s, actions: [{ type: "record", event: "step", detail: step.kind }, ...acts] };
}

function finish(state: RespawnState, now: number, pre: RespawnAction[]): Transition {
  const c = state.cycle!;
  const s: RespawnState = {
    ...ended(state, now),
    cycles: state.cycles + 1,
    awaitingProgress: c.trigger !== null,
    lastCycle: { kind: c.kind, endedAt: now, trigger: c.trigger, ok: true, freshAfter: c.resetAt ?? now },
  };
  return { state: s, actions: [...pre, { type: "record", event: "cycle_done", detail: `${c.kind} #${s.cycles}` }] };
}
