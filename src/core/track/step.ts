import { levelValueText } from "../budget.ts";
import { type CompactionTrigger, compactionTrigger } from "../compaction.ts";
import { levelRank, type Ladder } from "../levels.ts";
import { limitFromHook } from "../limit.ts";
import { levelFor, newlyCrossed } from "./levels.ts";
import { pauseItem, type PauseEntry } from "./pause.ts";
import type { WindowSource } from "../window.ts";
import type { Level, SessionState } from "./state.ts";

/** A usage reading as track applies it. */
export interface TrackReading {
  usedTokens: number;
  windowSize: number;
  usedPct: number;
  model?: string;
  /** Where the window came from (core/window.ts), when known. */
  windowSource?: WindowSource;
  /** True when the reading is a compaction boundary's post-compaction size. */
  compacted?: boolean;
}

/** One thing that happened to a session: a hook event, or "usage" from the plain mode. */
export interface TrackEvent {
  event: string;
  /** ISO-8601 time of the event. */
  iso: string;
  /** The hook input (tool name, prompt, …), `{}` in plain mode. */
  input: Record<string, unknown>;
  reading?: TrackReading;
  /** The transcript read by this call ends at a usage limit (set on the state already): this event does not clear it. */
  limitInTranscript?: boolean;
}

/** When `ctx finalize` runs by itself on SessionEnd: only with an active pause, always, or never. */
export type FinalizeOnEnd = "pause" | "always" | "never";

/** What one step decided, for the I/O layer to carry out. */
export interface StepResult {
  state: SessionState;
  /** A level newly crossed: show it to the user. */
  report: Level | null;
  /** Lines to append to the pause log. */
  pause: PauseEntry[];
  /** Start `ctx finalize` in the background. */
  finalize: boolean;
  /** PreCompact: record a compaction event with these tokens before, its trigger and the level it left. */
  compactionStart?: { tokens_before: number; trigger: CompactionTrigger; level: Level | null };
  /** A compaction began or happened: forget the monitor's debounce and the CRITICAL crossing's marker. */
  resetDebounce?: boolean;
  /** The first usage after a compaction: fill in the event's tokens after. */
  compactionDone?: { path: string; tokens_after: number };
  /** A compression or compaction known once it happened: record it whole (before and after). */
  compression?: { tokens_before: number; tokens_after: number; trigger: string | null; level?: Level | null };
}

/** Tool events: they count as tool calls. */
const TOOL_EVENTS = new Set(["PostToolUse", "PostToolUseFailure"]);

/** Applies one event to a session's state (pure: the input state is not changed). */
export function trackStep(prev: SessionState, ev: TrackEvent, t: Ladder, onEnd: FinalizeOnEnd): StepResult {
  const s: SessionState = { ...prev, models: prev.models, updated_at: ev.iso, last_event: ev.event };
  const out: StepResult = { state: s, report: null, pause: [], finalize: false };
  if (TOOL_EVENTS.has(ev.event)) {
    // A tool run inside a subagent (its hook carries agent_id) is counted apart from the main agent's.
    if (ev.input.agent_id !== undefined && ev.input.agent_id !== null) s.subagent_tool_calls += 1;
    else s.tool_calls += 1;
  }
  if (ev.event === "Stop") s.last_stop_at = ev.iso;
  applyLimit(s, ev);
  // right after a compaction the transcript may still end at the request before it: a figure that did not fall
  // is not the compacted context (a compaction always lowers it), so it is no news
  const stale =
    ev.input.source === "compact" && !ev.reading?.compacted && (ev.reading?.usedTokens ?? 0) >= prev.used_tokens;
  if (ev.reading && !stale) applyReading(s, ev, t, out);
  const item = pauseItem(ev.event, ev.input);
  if (item && s.auto_pause_active) out.pause.push(entry(s, ev.iso, item.type, item.data));
  if (ev.event === "PreCompact") {
    s.compactions += 1;
    const trigger = compactionTrigger(ev.input.trigger, prev.last_event);
    out.compactionStart = { tokens_before: s.used_tokens, trigger, level: prev.threshold_reached };
    out.finalize = s.auto_pause_active;
    resetLevel(s, out);
  } else if (ev.event === "SessionStart" && ev.input.source === "compact" && compactedUnseen(prev)) {
    // A compaction whose PreCompact ctx never saw (an idle one, a client without the hook): recorded now,
    // completed by the boundary's or the next request's figure.
    s.compactions += 1;
    const trigger = compactionTrigger(undefined, prev.last_event);
    out.compactionStart = { tokens_before: prev.used_tokens, trigger, level: prev.threshold_reached };
    resetLevel(s, out);
  }
  if (ev.event === "PreCompress" && !s.pending_compress) {
    // Gemini CLI fires it before every request: only the next reading tells whether anything was compressed.
    const trigger = typeof ev.input.trigger === "string" ? ev.input.trigger : null;
    s.pending_compress = { tokens_before: s.used_tokens, trigger };
  }
  if (ev.event === "SessionEnd")
    out.finalize =
      onEnd === "always" || (onEnd === "pause" && s.auto_pause_active) || (onEnd !== "never" && handoffDueAtEnd(s));
  return out;
}

/**
 * True when a session's handoff summary must be written (again) as it ends, so the next session gets its
 * last steps: it has one (written at CRITICAL, or by hand), or it reached CRITICAL without one. Not judged by
 * timestamps: the client writes its transcript in batches, so a summary written after the last hook may
 * still lack the last lines (a failing call's result, the final reply).
 */
function handoffDueAtEnd(s: SessionState): boolean {
  return s.finalized_at !== null || levelRank(s.threshold_reached) >= levelRank("critical");
}

/**
 * True while that end-of-session summary is still to come: the session has not ended yet (its SessionEnd
 * hook may be running, or cut short), or the newest finalize started before its end. A finalize started at
 * `doneSince` or later (one the resume hook started itself) counts as the refresh.
 */
export function handoffRefreshPending(s: SessionState, doneSince?: number): boolean {
  if (!handoffDueAtEnd(s)) return false;
  const at = s.finalized_at ? Date.parse(s.finalized_at) : Number.NaN;
  if (doneSince !== undefined && at >= doneSince) return false;
  return s.last_event !== "SessionEnd" || !(at >= Date.parse(s.updated_at));
}

// --- internal ---

/** After a compaction the ladder starts over: the level is forgotten, and so are the monitor's debounce and marker. */
function resetLevel(s: SessionState, out: StepResult): void {
  s.threshold_reached = null;
  out.report = null;
  out.resetDebounce = true;
}

/** True when ctx has not recorded the compaction a SessionStart `compact` announces (no PreCompact came before it). */
function compactedUnseen(prev: SessionState): boolean {
  return prev.pending_compaction === null && prev.last_event !== "PreCompact";
}

/** Events of a turn that went through: the limit is over. */
const PAST_LIMIT = new Set(["Stop", "PostToolUse", "PostToolUseFailure", "SessionStart"]);

/** A `StopFailure` at the usage limit records it; a turn that goes through clears it. */
function applyLimit(s: SessionState, ev: TrackEvent): void {
  const limit = limitFromHook(ev.input, Date.parse(ev.iso));
  if (limit) {
    s.limit = limit.message;
    s.limit_at = ev.iso;
    s.resets_at = limit.resetsAt === null ? null : new Date(limit.resetsAt).toISOString();
  } else if (PAST_LIMIT.has(ev.event) && s.limit !== null && !ev.limitInTranscript) {
    s.limit = s.limit_at = s.resets_at = null;
  }
}

function applyReading(s: SessionState, ev: TrackEvent, t: Ladder, out: StepResult): void {
  const r = ev.reading!;
  s.used_tokens = r.usedTokens;
  s.used_pct = r.usedPct;
  if (r.windowSize > 0) {
    s.window_size = s.context_window = r.windowSize;
    s.context_window_source = r.windowSource ?? s.context_window_source;
  }
  if (r.model) s.model = r.model;
  s.peak_tokens = Math.max(s.peak_tokens, r.usedTokens);
  s.peak_pct = Math.max(s.peak_pct, r.usedPct);
  const pending = s.pending_compaction;
  // No figure, never a context after a compaction (its summary is in it): a boundary without its size (2.1.197
  // writes no `postTokens`), or a reading taken before the first request after it. The first usage after it is.
  const unsized = r.usedTokens === 0;
  if (pending && ev.event !== "PreCompact" && !unsized && (r.compacted || r.usedTokens !== pending.tokens_before)) {
    out.compactionDone = { path: pending.path, tokens_after: r.usedTokens };
    s.pending_compaction = null;
  }
  const compress = s.pending_compress;
  if (compress && ev.event !== "PreCompress") {
    // The context fell: the client compressed its history. Not fallen: nothing happened.
    s.pending_compress = null;
    if (r.usedTokens < compress.tokens_before) {
      s.compactions += 1;
      out.compression = {
        tokens_before: compress.tokens_before,
        tokens_after: r.usedTokens,
        trigger: compress.trigger,
      };
      if (s.auto_pause_active) out.pause.push(entry(s, ev.iso, "compaction", { ...out.compression }));
      // A handoff while paused, as on Claude Code's PreCompact: once, for this one compression.
      out.finalize = s.auto_pause_active;
    }
  }
  const level = levelFor(r, t);
  out.report = newlyCrossed(s.threshold_reached, level);
  s.threshold_reached = level;
  const pauseOn = level === "auto_pause";
  if (pauseOn && !s.auto_pause_active) {
    s.auto_pause_active = true;
    s.pause_started_at = ev.iso;
    const reason = `Context usage reached ${r.usedPct}% (auto_pause at ${levelValueText(t.auto_pause)})`;
    const data = { reason, used_tokens: r.usedTokens, window_size: s.window_size };
    out.pause.push(entry(s, ev.iso, "pause_started", data));
  } else if (!pauseOn && s.auto_pause_active) {
    out.pause.push(entry(s, ev.iso, "pause_ended", { reason: `Context usage dropped to ${r.usedPct}%` }));
    s.auto_pause_active = false;
    s.pause_started_at = null;
  }
}

function entry(s: SessionState, iso: string, type: string, data: Record<string, unknown>): PauseEntry {
  return { type, timestamp: iso, session_id: s.session_id, data, context_percentage: s.used_pct };
}
