/**
 * The supervisor at the usage limit (phase `limited`). A limit is neither stuck nor idle and
 * costs no cycle: nothing is typed before its reset plus `respawn.limit_margin_s` (a limit
 * without a reset time, or one back right after a retry, waits the back-off of core/limit.ts).
 * Then the client's limit menu is left with Esc (never "Upgrade your plan"), and the continue
 * prompt is typed only at the idle input box. A client that went on by itself is left alone.
 */
import { capReset, limitWaitUntil } from "../limit.ts";
import type { RespawnAction, RespawnEvent, RespawnState, Transition } from "./types.ts";

/** The wait at a usage limit (phase `limited`). */
export interface LimitWait {
  /** The client's message. */
  message: string;
  /** When the supervisor saw it (ms). */
  at: number;
  /** The reset the message names (ms), or null. */
  resetsAt: number | null;
  /** Limits in a row, this one included (the back-off). */
  repeat: number;
  /** Nothing is typed before this time (ms). */
  until: number;
  /** When Esc was last pressed on the limit menu (ms), or null. */
  escAt: number | null;
  /** How often Esc was pressed on the limit menu (at most `MAX_ESC`). */
  escs: number;
  /** When the continue prompt was typed (ms), or null. */
  sentAt: number | null;
  /** Since when (past the wait) the empty input box has been shown without a break (ms), or null. */
  promptSince: number | null;
}

/** Esc is pressed again on a menu still open after this long (at least twice the quiet period). */
const MENU_RETRY_MS = 5000;
/** Esc is pressed at most this often per limit; a menu still open after that is the user's. */
export const MAX_ESC = 2;

/** A limit reported by the hooks' state or the pane: start (or update) the wait. */
function onLimitSeen(s: RespawnState, seen: Extract<RespawnEvent, { type: "limit" }>, now: number): Transition {
  // A reset past the horizon (text a tool printed, a skewed clock) is read as the horizon.
  const ev = { ...seen, resetsAt: capReset(seen.resetsAt, now) };
  const capped: RespawnAction[] =
    ev.resetsAt !== seen.resetsAt
      ? [
          {
            type: "record",
            event: "limit_capped",
            detail: `reset ${new Date(seen.resetsAt!).toISOString()} is past the 7-day horizon`,
          },
        ]
      : [];
  const t = onLimitEvent(s, ev, now);
  return { state: t.state, actions: [...capped, ...t.actions] };
}

function onLimitEvent(s: RespawnState, ev: Extract<RespawnEvent, { type: "limit" }>, now: number): Transition {
  const cur = s.limit;
  if (cur && cur.sentAt === null) {
    // The same limit from a second source: keep the first, learn its reset time if it had none.
    if (cur.resetsAt !== null || ev.resetsAt === null) return { state: s, actions: [] };
    const next = { ...cur, resetsAt: ev.resetsAt };
    const until = limitWaitUntil({ ...next, at: cur.at }, cur.repeat, s.settings.limitMarginMs);
    return { state: { ...s, limit: { ...next, until } }, actions: [record("limit_reset", until)] };
  }
  if (s.phase === "halted" || s.phase === "stopped")
    return { state: s, actions: [{ type: "record", event: "limit", detail: ev.message }] };
  const repeat = s.limitRepeat + 1;
  const until = limitWaitUntil(
    { message: ev.message, at: now, resetsAt: ev.resetsAt },
    repeat,
    s.settings.limitMarginMs,
  );
  const wait: LimitWait = {
    message: ev.message,
    at: now,
    resetsAt: ev.resetsAt,
    repeat,
    until,
    escAt: null,
    escs: 0,
    sentAt: null,
    promptSince: null,
  };
  const actions: RespawnAction[] = [];
  let cycleStarts = s.cycleStarts;
  if (s.cycle) {
    // The cycle did not run out of anything: it costs nothing against the hourly cap.
    cycleStarts = s.cycleStarts.filter((t) => t !== s.cycle!.startedAt);
    actions.push({ type: "record", event: "cycle_aborted", detail: `usage limit during ${s.cycle.kind}` });
  }
  actions.push(
    { type: "record", event: "limit", detail: `${ev.message} (limit ${repeat} in a row)` },
    record("limit_wait", until),
    { type: "notify", message: `usage limit; nothing is typed until ${new Date(until).toISOString()}` },
  );
  const state: RespawnState = {
    ...s,
    phase: "limited",
    phaseSince: now,
    cycle: null,
    cycleStarts,
    limit: wait,
    limitRepeat: repeat,
  };
  return { state, actions };
}

/** One step while limited: wait for the reset, leave the menu, type the continue prompt, see the client go on. */
function onLimited(s: RespawnState, now: number): Transition {
  const l = s.limit!;
  const sc = s.screen;
  const busySince = (t: number) => s.lastBusyAt !== null && s.lastBusyAt > t;
  if (l.sentAt !== null) {
    if (busySince(l.sentAt) || (s.lastStopAt ?? 0) > l.sentAt) return over(s, now, "continued after the reset");
    if (now - l.sentAt > s.settings.stepTimeoutMs) return over(s, now, "the continue prompt was not taken");
    return { state: s, actions: [] };
  }
  // Busy again without a word from ctx (an automatic retry, the user): the client went on by itself.
  if (busySince(l.at) || (s.lastStopAt ?? 0) > l.at) return over(s, now, "the client continued by itself");
  if (now < l.until || !sc) return { state: s, actions: [] };
  if (sc.blocker === "limit") {
    if (l.escAt !== null && now - l.escAt < Math.max(MENU_RETRY_MS, 2 * s.settings.quietMs))
      return { state: s, actions: [] };
    const escs = l.escs;
    if (escs > MAX_ESC) return { state: s, actions: [] };
    if (escs === MAX_ESC) {
      const detail = `the limit menu stayed open after ${MAX_ESC} Esc: nothing more is typed until it closes`;
      return { state: { ...s, limit: { ...l, escs: escs + 1 } }, actions: [{ type: "record", event: "hold", detail }] };
    }
    return {
      state: { ...s, limit: { ...l, escAt: now, escs: escs + 1 } },
      actions: [
        { type: "send_keys", keys: ["Escape"] },
        { type: "record", event: "limit_menu_left", detail: "Esc" },
      ],
    };
  }
  // The empty input box, steadily for the quiet period. Not a still screen: 2.1.328 animates its logo while it waits.
  const atPrompt = sc.prompt && !sc.busy && !sc.blocker;
  const since = atPrompt ? (l.promptSince ?? now) : null;
  if (since !== l.promptSince) s = { ...s, limit: { ...l, promptSince: since } };
  if (since === null || now - since < s.settings.quietMs) return { state: s, actions: [] };
  const text = s.settings.limitContinuePrompt;
  if (!text) return over(s, now, "the limit reset; no continue prompt set");
  return {
    state: { ...s, limit: { ...s.limit!, sentAt: now }, handledAt: now },
    actions: [
      { type: "record", event: "limit_continue", detail: text },
      { type: "send_text", text: text.replace(/\s*\n\s*/g, " ") },
    ],
  };
}

/** The step at a usage limit: a `limit` event, or any event while limited; null otherwise (the phase decides). */
export function limitStep(s: RespawnState, event: RespawnEvent, now: number): Transition | null {
  if (event.type === "limit") return onLimitSeen(s, event, now);
  return s.phase === "limited" ? onLimited(s, now) : null;
}

// --- internal ---

function over(s: RespawnState, now: number, why: string): Transition {
  // A turn that ended well (a Stop hook) ends the run of limits too.
  const limitRepeat = (s.lastStopAt ?? 0) > (s.limit?.at ?? now) ? 0 : s.limitRepeat;
  return {
    state: { ...s, phase: "watching", phaseSince: now, limit: null, limitRepeat, handledAt: now },
    actions: [{ type: "record", event: "limit_over", detail: why }],
  };
}

function record(event: string, until: number): RespawnAction {
  return { type: "record", event, detail: `nothing typed until ${new Date(until).toISOString()}` };
}
