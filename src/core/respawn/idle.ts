/** Layered idle detection: which signal, if any, says the client is idle now. */
import type { IdleSignal, RespawnState } from "./types.ts";

/**
 * The strongest idle signal on the current screen and state, or null. Nothing
 * counts while the client is busy, a dialog is open or the input box holds
 * text. In order: a Stop hook newer than the last thing the machine handled;
 * the completion line `✻ <Verb> for <duration>`; output silence for
 * `silenceMs` with the token count stable as long.
 */
export function idleSignal(state: RespawnState, now: number): IdleSignal | null {
  const sc = state.screen;
  if (!sc || sc.busy || sc.blocker || !sc.prompt) return null;
  if (state.lastStopAt !== null && state.lastStopAt > state.handledAt) return "stop_hook";
  if (sc.finished) return "completion";
  const silent = now - state.lastChangeAt >= state.settings.silenceMs;
  const stable = state.usageChangedAt === null || now - state.usageChangedAt >= state.settings.silenceMs;
  return silent && stable ? "silence" : null;
}

/** True while the client shows the empty prompt, not busy, no dialog, and the screen has been still for `quietMs`. */
export function quietAtPrompt(state: RespawnState, now: number): boolean {
  const sc = state.screen;
  if (!sc || sc.busy || sc.blocker || !sc.prompt) return false;
  return now - state.lastChangeAt >= state.settings.quietMs;
}

/** True when an AI check may run now (enabled, not auto-disabled, not cooling down after WORKING). */
export function aiCheckAllowed(state: RespawnState, now: number): boolean {
  return state.settings.aiCheck && !state.ai.disabled && now >= state.ai.cooldownUntil;
}
