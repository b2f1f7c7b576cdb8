/**
 * The respawn supervisor as a pure transition function. See docs/respawn.md
 * for the diagram; the driver (src/io/respawn/driver.ts) feeds it events.
 *
 * Which events each phase handles. `stop` and `pane_gone` end every phase
 * (→ stopped). Every other event first updates what all phases share
 * (absorb.ts: `screen`, `stop_hook`, `usage` with the no-progress check,
 * `finalize_done`'s summary); then the phase looks at the state ("any" = on
 * every event, `tick` included):
 *
 * | phase           | handles                                          | goes to                        |
 * |-----------------|--------------------------------------------------|--------------------------------|
 * | watching        | any: an idle signal, a still plan menu           | confirming_idle, ai_checking   |
 * | confirming_idle | any: output cancels, `quiet_ms` still confirms   | watching, idle (→ cycling)     |
 * | ai_checking     | `ai_verdict`; any: output cancels, the timeout   | watching, idle (→ cycling)     |
 * | idle            | any: new activity, a cycle needed, the brakes    | watching, cycling, halted      |
 * | cycling         | `finalize_done`; any: a step confirmed, timeouts | cycling, watching              |
 * | limited         | any: the reset passed, the client went on        | watching (limit.ts)            |
 * | halted          | nothing (watches, never acts)                    | stopped                        |
 * | stopped         | nothing                                          | -                              |
 */
import { absorb } from "./absorb.ts";
import { activeBrake, settleProgress } from "./brakes.ts";
import { onCycling, startCycle } from "./cycle.ts";
import { aiCheckAllowed, idleSignal } from "./idle.ts";
import { limitStep } from "./limit.ts";
import { chooseCycle } from "./plan.ts";
import type { IdleSignal, RespawnAction, RespawnEvent, RespawnSettings, RespawnState, Transition } from "./types.ts";

/** Errors in a row after which the AI check turns itself off. */
export const AI_MAX_ERRORS = 3;

/** The state a supervisor starts in. */
export function initialState(settings: RespawnSettings, now: number): RespawnState {
  return {
    version: 1,
    settings,
    phase: "watching",
    phaseSince: now,
    screen: null,
    lastChangeAt: now,
    lastBusyAt: null,
    lastStopAt: null,
    handledAt: now,
    usage: null,
    usageChangedAt: null,
    idleSignal: null,
    cycle: null,
    cycleStarts: [],
    cycles: 0,
    lastCycle: null,
    awaitingProgress: false,
    noProgress: 0,
    cooldownUntil: 0,
    brake: null,
    ai: { errors: 0, disabled: false, cooldownUntil: 0 },
    planAcceptedAt: null,
    reason: null,
    limit: null,
    limitRepeat: 0,
  };
}

/** One step of the machine: the next state and the actions to carry out, in order. */
export function transition(state: RespawnState, event: RespawnEvent, now: number): Transition {
  if (state.phase === "stopped") return { state, actions: [] };
  if (event.type === "stop" || event.type === "pane_gone") {
    const reason = event.type === "stop" ? event.reason : "the pane is gone";
    const s = { ...state, phase: "stopped" as const, phaseSince: now, cycle: null, reason };
    return {
      state: s,
      actions: [
        { type: "record", event: "stopped", detail: reason },
        { type: "exit", reason },
      ],
    };
  }
  const absorbed = absorb(state, event, now);
  const s = absorbed.state;
  const pre = absorbed.actions;
  // A usage limit comes before every phase (it is neither idle nor stuck, and costs no cycle).
  const out = limitStep(s, event, now) ?? dispatch(s, event, now);
  return { state: out.state, actions: [...pre, ...out.actions] };
}

// --- internal ---

function dispatch(s: RespawnState, event: RespawnEvent, now: number): Transition {
  switch (s.phase) {
    case "watching":
      return onWatching(s, now);
    case "confirming_idle":
      return onConfirming(s, now);
    case "ai_checking":
      return onAiChecking(s, event, now);
    case "idle":
      return onIdle(s, now);
    case "cycling":
      return onCycling(s, event, now);
    default:
      return { state: s, actions: [] }; // halted: watch only, never act
  }
}

function enter(s: RespawnState, phase: RespawnState["phase"], now: number): RespawnState {
  return { ...s, phase, phaseSince: now };
}

function onWatching(s: RespawnState, now: number): Transition {
  const plan = acceptPlan(s, now);
  if (plan) return plan;
  const signal = idleSignal(s, now);
  if (!signal) return { state: s, actions: [] };
  if (signal === "silence" && s.settings.aiCheck && !s.ai.disabled) {
    if (!aiCheckAllowed(s, now)) return { state: s, actions: [] };
    return { state: { ...enter(s, "ai_checking", now), idleSignal: "ai_check" }, actions: [{ type: "ai_check" }] };
  }
  return { state: { ...enter(s, "confirming_idle", now), idleSignal: signal }, actions: [] };
}

/** A candidate idle holds when nothing changes for the quiet period; any output cancels it. */
function onConfirming(s: RespawnState, now: number): Transition {
  const sc = s.screen;
  if (!sc || sc.busy || sc.blocker || !sc.prompt || s.lastChangeAt > s.phaseSince) {
    return {
      state: enter(s, "watching", now),
      actions: [{ type: "record", event: "idle_cancelled", detail: s.idleSignal ?? undefined }],
    };
  }
  if (now - s.phaseSince < s.settings.quietMs || now - s.lastChangeAt < s.settings.quietMs)
    return { state: s, actions: [] };
  return confirmIdle(s, s.idleSignal ?? "completion", now);
}

function confirmIdle(s: RespawnState, signal: IdleSignal, now: number): Transition {
  const idle = { ...enter(s, "idle", now), idleSignal: signal, handledAt: now };
  const next = onIdle(idle, now);
  return { state: next.state, actions: [{ type: "record", event: "idle", detail: signal }, ...next.actions] };
}

function onAiChecking(s: RespawnState, event: RespawnEvent, now: number): Transition {
  const sc = s.screen;
  if (!sc || sc.busy || sc.blocker || s.lastChangeAt > s.phaseSince) {
    return {
      state: enter(s, "watching", now),
      actions: [{ type: "record", event: "idle_cancelled", detail: "ai_check" }],
    };
  }
  const timedOut = now - s.phaseSince > s.settings.aiCheckTimeoutMs;
  if (event.type !== "ai_verdict" && !timedOut) return { state: s, actions: [] };
  const verdict = event.type === "ai_verdict" ? event.verdict : "error";
  if (verdict === "idle") return confirmIdle(s, "ai_check", now);
  if (verdict === "working") {
    const next = {
      ...enter(s, "watching", now),
      ai: { ...s.ai, errors: 0, cooldownUntil: now + s.settings.aiCheckCooldownMs },
    };
    return { state: next, actions: [{ type: "record", event: "ai_verdict", detail: "working" }] };
  }
  const errors = s.ai.errors + 1;
  const disabled = errors >= AI_MAX_ERRORS;
  const detail = event.type === "ai_verdict" && event.detail ? event.detail : timedOut ? "timeout" : "error";
  const actions: RespawnAction[] = [{ type: "record", event: "ai_error", detail }];
  if (disabled) actions.push({ type: "notify", message: `AI idle check failed ${errors} times in a row; disabled` });
  // The silence was already observed: fall back to it, as if the check were off.
  const next = confirmIdle({ ...s, ai: { ...s.ai, errors, disabled } }, "silence", now);
  return { state: next.state, actions: [...actions, ...next.actions] };
}

/** Idle and settled: start a cycle when one is needed and no brake holds it; leave on new activity. */
function onIdle(s: RespawnState, now: number): Transition {
  const sc = s.screen;
  const active =
    !sc || sc.busy || sc.blocker || !sc.prompt || s.lastChangeAt > s.phaseSince || (s.lastStopAt ?? 0) > s.handledAt;
  if (active) return onWatching(enter(s, "watching", now), now);
  const settled = settleProgress(s, now);
  if (settled) {
    const next = onIdle(settled.state, now);
    return { state: next.state, actions: [...settled.actions, ...next.actions] };
  }
  const choice = chooseCycle(s);
  if (!choice) return { state: s.brake ? { ...s, brake: null } : s, actions: [] };
  const brake = activeBrake(s, now);
  if (!brake) return startCycle(s, choice, now);
  if (brake.kind === "halt") {
    // The record's reason reads as the user was told in tmux.
    const halted = { ...enter(s, "halted", now), reason: `ctx respawn: ${brake.message}`, brake: brake.name };
    return {
      state: halted,
      actions: [
        { type: "record", event: "halted", detail: brake.name },
        { type: "notify", message: brake.message },
      ],
    };
  }
  if (s.brake === brake.name) return { state: s, actions: [] };
  return {
    state: { ...s, brake: brake.name },
    actions: [
      { type: "record", event: "brake", detail: brake.name },
      ...(brake.name !== "cooldown" ? [{ type: "notify" as const, message: brake.message }] : []),
    ],
  };
}

/** With `auto_accept_plans`, a plan-approval menu that has sat still for the quiet period gets Enter. */
function acceptPlan(s: RespawnState, now: number): Transition | null {
  const sc = s.screen;
  if (!s.settings.autoAcceptPlans || sc?.blocker !== "plan") return null;
  if (now - s.lastChangeAt < s.settings.quietMs) return null;
  if (s.planAcceptedAt !== null && now - s.planAcceptedAt < Math.max(5000, 2 * s.settings.quietMs)) return null;
  return {
    state: { ...s, planAcceptedAt: now },
    actions: [
      { type: "send_keys", keys: ["Enter"] },
      { type: "record", event: "plan_accepted" },
    ],
  };
}
