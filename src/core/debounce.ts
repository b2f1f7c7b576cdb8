import { agentText, isWarnLevel, levelRank, type Level, type WarnLevel } from "./levels.ts";

export type { WarnLevel };

/** Per-session monitor state, kept in `<root>/state/monitor/<session_id>.json`. */
export interface MonitorState {
  /** Schema version. */
  version: 1;
  /** The level of the last warning that fired, or null when none is pending. */
  last_level: WarnLevel | null;
  /** Tool uses since the last warning fired. */
  calls_since: number;
  /** Warnings fired in this session (for status and tests). */
  fired: number;
  /** When the state was last written (ms). */
  updated_ms: number;
  /** Warnings sent in the session's life, never reset (`ctx_warnings_sent_total`, docs/metrics.md). */
  sent_total: number;
}

/** A fresh state: nothing fired yet. */
export function initialMonitorState(nowMs: number): MonitorState {
  return { version: 1, last_level: null, calls_since: 0, fired: 0, updated_ms: nowMs, sent_total: 0 };
}

/**
 * One tool use through the debounce. The first warning fires at once; a repeat
 * of the same level fires on the `debounceCalls`-th tool use after the last one
 * (GSD's counting); an escalation to a higher level fires at once; usage back below
 * the warning level resets everything so the next crossing fires at once.
 */
export function debounceStep(
  state: MonitorState,
  level: Level,
  debounceCalls: number,
  nowMs: number,
): { state: MonitorState; fire: boolean } {
  if (level === "ok") return { state: { ...initialMonitorState(nowMs), sent_total: state.sent_total }, fire: false };
  const calls = state.calls_since + 1;
  const escalated = state.last_level !== null && levelRank(level) > levelRank(state.last_level);
  const fire = state.last_level === null || escalated || calls >= debounceCalls;
  if (!fire) return { state: { ...state, calls_since: calls, updated_ms: nowMs }, fire };
  const sent_total = state.sent_total + 1;
  return {
    state: { version: 1, last_level: level, calls_since: 0, fired: state.fired + 1, updated_ms: nowMs, sent_total },
    fire,
  };
}

/** Accepts a parsed state file, or returns undefined when it is not one. */
export function parseMonitorState(v: unknown): MonitorState | undefined {
  if (!v || typeof v !== "object") return undefined;
  const s = v as Partial<MonitorState>;
  const level = isWarnLevel(s.last_level) ? s.last_level : null;
  if (typeof s.calls_since !== "number" || !Number.isFinite(s.calls_since)) return undefined;
  return {
    version: 1,
    last_level: level,
    calls_since: Math.max(0, s.calls_since),
    fired: Number(s.fired) || 0,
    updated_ms: Number(s.updated_ms) || 0,
    // older files have only `fired` (reset when usage fell below the warning level)
    sent_total: Math.max(0, Math.floor(Number(s.sent_total) || Number(s.fired) || 0)),
  };
}

/** The text injected into the agent's conversation (the table's agent text, core/levels.ts). */
export const warningText = agentText;
