/**
 * A per-user index entry (`${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/<sid>.json`,
 * docs/state.md), validated field by field: an entry from another version or
 * half-written by hand still shows what it can.
 */
import type { Bridge } from "../bridge.ts";
import { isValidSessionId } from "../session-id.ts";
import { count, percentage } from "../usage.ts";

/** The index entry as `ctx status` uses it. */
export interface IndexEntry {
  /** The session id (also the file name). */
  session_id: string;
  /** The chain's task id (tells two sessions of one project apart), or "" when the entry has none. */
  task_id: string;
  /** The client (its adapter's name, `AgentName` in core/agents/), or "" when the entry does not say. */
  agent: string;
  /** The session this one continues (a /clear, a resume), or "" (its label is this one's until its own status line). */
  previous_session_id: string;
  /** Absolute project directory. */
  project: string;
  /** The project's state root (`<project>/.ctx` or CTX_DIR). */
  root: string;
  /** The session's full state file, or "" when the entry has none. */
  state_path: string;
  /** Model id, or "" when unknown. */
  model: string;
  /** Used share of the window (0-100+), or null before the first usage. */
  used_pct: number | null;
  /** Tokens in the context, or null. */
  used_tokens: number | null;
  /** Context window in tokens, or null. */
  window_size: number | null;
  /** Where the window came from (statusline, remembered, client_args, …), or "" when the entry does not say. */
  context_window_source: string;
  /** The level reached (warning, critical, auto_pause), null below warning, undefined when the entry does not say. */
  threshold_reached: string | null | undefined;
  /** True once auto-pause captures actions. */
  auto_pause_active: boolean;
  /** At the usage limit: the client's message, else null. */
  limit: string | null;
  /** When the limit resets (ms since the epoch), or null when unknown or not at the limit. */
  resets_ms: number | null;
  /** The respawn supervisor's record: null when none; a string or an object with a state. */
  respawn: unknown;
  /** Last update, ms since the epoch; NaN when missing or unparsable. */
  updated_ms: number;
  /** Last update as written (ISO-8601), or "". */
  updated_at: string;
}

/** Validates a parsed index file; undefined when it is not an entry (no valid session id). */
export function parseIndexEntry(value: unknown, fileSessionId?: string): IndexEntry | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const sid = r.session_id;
  if (!isValidSessionId(sid) || (fileSessionId !== undefined && sid !== fileSessionId)) return undefined;
  const updatedAt = text(r.updated_at);
  const thr = r.threshold_reached;
  return {
    session_id: sid,
    task_id: text(r.task_id),
    agent: /^[a-z]{1,16}$/.test(text(r.agent)) ? text(r.agent) : "",
    previous_session_id: isValidSessionId(r.previous_session_id) ? r.previous_session_id : "",
    project: text(r.project),
    root: text(r.root),
    state_path: text(r.state_path),
    model: text(r.model),
    used_pct: percentage(r.used_pct) ?? null,
    used_tokens: tokens(r.used_tokens),
    window_size: tokens(r.window_size),
    context_window_source: /^[a-z_]{1,32}$/.test(text(r.context_window_source)) ? text(r.context_window_source) : "",
    threshold_reached: typeof thr === "string" ? thr : thr === null ? null : undefined,
    auto_pause_active: r.auto_pause_active === true,
    limit: typeof r.limit === "string" && r.limit !== "" ? r.limit : null,
    resets_ms: typeof r.limit === "string" && typeof r.resets_at === "string" ? Date.parse(r.resets_at) || null : null,
    respawn: r.respawn ?? null,
    updated_ms: Date.parse(updatedAt),
    updated_at: updatedAt,
  };
}

/**
 * The entry with the status line's figure when the session's bridge file is at least as new: the
 * status line gets each request's usage at once, while `ctx track` (below half the warning level) reads
 * it from the transcript without waiting for the client to write it, so the entry can be a request
 * behind. The level then follows the figure, as the status line's colour does.
 */
export function withBridge(e: IndexEntry, b: Bridge | undefined): IndexEntry {
  if (!b || b.session_id !== e.session_id || !(b.timestamp * 1000 >= Math.floor(e.updated_ms / 1000) * 1000)) return e;
  if (b.used_pct === e.used_pct && b.used_tokens === e.used_tokens) return e;
  return {
    ...e,
    used_pct: b.used_pct,
    used_tokens: b.used_tokens,
    window_size: b.context_window_size || e.window_size,
    context_window_source: b.context_window_size ? "statusline" : e.context_window_source,
    threshold_reached: undefined,
  };
}

// --- internal ---

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** A token figure: 0 or a plausible count (see count), else null. */
function tokens(v: unknown): number | null {
  return v === 0 ? 0 : count(v) || null;
}
