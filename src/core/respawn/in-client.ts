/**
 * The cycle inside the client (`respawn.in_client`): what ctx's Claude Code mod does at a turn's
 * end, decided as the tmux supervisor decides (`chooseCycle`, `activeBrake`), after the checks
 * that leave the person's session alone. Pure: the mod reports what it sees, ctx answers.
 */
import { activeBrake, checkProgress } from "./brakes.ts";
import { buildSteps, chooseCycle } from "./plan.ts";
import type { CycleKind, RespawnState, Step } from "./types.ts";

/** What the mod sees when the main turn has ended and the session has been quiet a moment. */
export interface IdleFacts {
  /** How the turn ended (`turn.complete` reason): only an answer leaves the session idle. */
  turnReason: string;
  /** The prompt box holds a draft the person is typing. */
  draft: boolean;
  /** A tool call is still open: a permission or question dialog waits for the person. */
  dialogOpen: boolean;
  /** A prompt was submitted since the turn ended (one the person queued during the turn). */
  queuedPrompt: boolean;
  /** Subagents still running (a background agent works on after the main turn). */
  subagentsRunning: number;
  /** The session is at the usage limit: the client continues by itself after the reset. */
  limited: boolean;
}

/** The in-client decision: nothing (and why), or a cycle with its steps. */
export type InClientDecision =
  | { kind: "none"; reason: string }
  | { kind: "brake"; reason: string; halt: boolean }
  | { kind: CycleKind; trigger: number | null; steps: Step[] };

/** Why the session is left alone, or undefined when it is idle enough to cycle. */
export function leaveAlone(f: IdleFacts): string | undefined {
  if (f.limited) return "at the usage limit: the client's own auto-continue goes on after the reset";
  if (f.turnReason !== "answer") return `the turn ended with ${f.turnReason}, not an answer`;
  if (f.draft) return "the person is typing a draft";
  if (f.dialogOpen) return "a dialog waits for the person";
  if (f.queuedPrompt) return "a prompt the person queued runs next";
  if (f.subagentsRunning > 0) return `${f.subagentsRunning} subagent(s) still running`;
  return undefined;
}

/**
 * The decision at an idle turn's end with the session at `pct` (`state` is the in-client
 * supervisor's machine state, its `usage` already set): the checks above first, then the
 * tmux supervisor's own plan and brakes. Keep-working mode is the tmux supervisor's alone.
 */
export function inClientDecision(state: RespawnState, facts: IdleFacts, now: number): InClientDecision {
  const alone = leaveAlone(facts);
  if (alone) return { kind: "none", reason: alone };
  if (state.settings.mode === "keep-working")
    return { kind: "none", reason: "respawn.mode keep-working runs in tmux only" };
  const choice = chooseCycle(state);
  if (!choice) return { kind: "none", reason: "below respawn.compact_at and respawn.restart_at" };
  const brake = activeBrake(state, now);
  if (brake) return { kind: "brake", reason: brake.message, halt: brake.kind === "halt" };
  return { kind: choice.kind, trigger: choice.trigger, steps: buildSteps(choice.kind, state.settings) };
}

/**
 * The record's `hold` line when a cycle is due but the session is left alone (the tmux supervisor
 * records the dialog or draft that holds it the same way), or undefined when nothing is held.
 * The usage limit has its own events.
 */
export function holdDetail(state: RespawnState, facts: IdleFacts): string | undefined {
  const alone = leaveAlone(facts);
  if (!alone || facts.limited || !state.usage) return undefined;
  const choice = chooseCycle(state);
  if (!choice || choice.kind === "keep-working") return undefined;
  return `${alone} at ${state.usage.pct}%: the ${choice.kind} waits for the next idle turn`;
}

/** The state with a new reading `pct` at `now`: the no-progress check of the last cycle applied. */
export function withReading(state: RespawnState, pct: number, now: number): RespawnState {
  return { ...state, usage: { pct, at: now }, ...checkProgress(state, pct, now) };
}

/** The state once a cycle of `kind` started at `now` (ok: its steps could be handed to the client). */
export function afterCycle(
  state: RespawnState,
  kind: CycleKind,
  trigger: number | null,
  ok: boolean,
  now: number,
): RespawnState {
  return {
    ...state,
    phase: "watching",
    phaseSince: now,
    cycleStarts: [...state.cycleStarts, now],
    cycles: state.cycles + (ok ? 1 : 0),
    lastCycle: { kind, endedAt: now, trigger, ok, freshAfter: now },
    awaitingProgress: ok,
    cooldownUntil: now + state.settings.cooldownMs,
    brake: null,
  };
}

/** At the usage limit: when to look again (the reset plus `respawn.limit_margin_s`) and what to submit then. */
export function limitPlan(
  state: RespawnState,
  resetsAtMs: number | null,
): { atMs: number; prompt: string } | undefined {
  const prompt = state.settings.limitContinuePrompt;
  if (resetsAtMs === null || !prompt) return undefined;
  return { atMs: resetsAtMs + state.settings.limitMarginMs, prompt };
}

/** What the mod sees when the wait at the limit is over. */
export interface AfterLimitFacts {
  /** The client's own auto-continue came (`prompt.submit` with `origin.kind: "auto-continuation"`). */
  autoContinued: boolean;
  /** A main turn started since the limit (the person, or the client, went on). */
  turnStarted: boolean;
  /** The prompt box holds a draft. */
  draft: boolean;
}

/**
 * Whether the mod continues after the reset itself: only where the client's own auto-continue did
 * not come (it fails in a detached tmux pane, claude-code #91535) and nobody went on; undefined
 * means go on, else the reason to leave it.
 */
export function afterLimit(f: AfterLimitFacts): string | undefined {
  if (f.autoContinued) return "the client continued by itself";
  if (f.turnStarted) return "the session went on";
  if (f.draft) return "the person is typing a draft";
  return undefined;
}
