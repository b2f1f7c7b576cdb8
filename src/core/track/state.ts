/**
 * The per-session state kept by `ctx track` (docs/state.md, "Per-session state").
 * Pure: no I/O, no clock.
 */
import type { WarnLevel } from "../levels.ts";
import type { WindowSource } from "../window.ts";
import { count, percentage } from "../usage.ts";
import { taskIdFor } from "./stamp.ts";

/** Token totals of one model, each API message counted once. */
export interface ModelTotals {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Distinct API messages counted. */
  requests: number;
}

/** A level of the ladder above ok (the one table in core/levels.ts). */
export type Level = WarnLevel;

/** Where the incremental transcript reader stopped, and what it saw last (for dedupe). */
export interface TranscriptCursor {
  /** Transcript the offset belongs to. */
  path: string;
  /** Byte offset of the first unread byte (always at a line start). */
  offset: number;
  /** Usage already counted for the newest message ids (message.id|requestId → totals), oldest first. */
  seen: Array<[string, ModelTotals]>;
}

/** The per-session state file `<root>/state/sessions/<sid>.json`. */
export interface SessionState {
  /** Layout version (1). */
  version: 1;
  /** Claude Code's session id. */
  session_id: string;
  /** The project directory: found from CLAUDE_PROJECT_DIR, else the hook's cwd (nearest `.ctx/`, else the git root). */
  project: string;
  /** The hook's cwd, when given. */
  cwd: string | null;
  /** The session's transcript, when known. */
  transcript_path: string | null;
  /** The client whose hooks track the session (core/agents/ `AgentName`), null until a hook says. */
  agent: string | null;
  /** Model of the latest main-chain request. */
  model: string | null;
  /** Context window in tokens. */
  window_size: number;
  /** The same window, under the name issue 16 gives it (0 until a reading). */
  context_window: number;
  /** Where the window came from (core/window.ts: statusline, remembered, client_args, …), null until a reading. */
  context_window_source: WindowSource | null;
  /** input + cache_creation + cache_read of the latest main-chain request. */
  used_tokens: number;
  /** round(used_tokens / window_size * 100), as the monitor computes it. */
  used_pct: number;
  /** Highest used_tokens seen. */
  peak_tokens: number;
  /** Highest used_pct seen. */
  peak_pct: number;
  /** Per-model totals for cost. */
  models: Record<string, ModelTotals>;
  /** PostToolUse + PostToolUseFailure events of the main agent. */
  tool_calls: number;
  /** PostToolUse + PostToolUseFailure events of tools run inside subagents (hooks with `agent_id`). */
  subagent_tool_calls: number;
  /** The highest level the current usage is at (null below the warning level). */
  threshold_reached: Level | null;
  /** True from the auto_pause level on: actions go to ACTIVE-PAUSE-<sid>.jsonl. */
  auto_pause_active: boolean;
  /** First time ctx saw the session (ISO-8601). */
  started_at: string;
  /** Last update (ISO-8601). */
  updated_at: string;
  /** The hook event of the last update ("usage" for the plain mode). */
  last_event: string | null;
  /** Last Stop hook: the agent finished a turn. */
  last_stop_at: string | null;
  /** The Claude Code process (same across /clear). */
  claude_pid: number | null;
  /**
   * The terminal the client runs in (core/terminal-id.ts): `tmux:%3` for a tmux pane, `tty:34816` for a
   * terminal's device, null when neither is known. `ctx resume --latest` finds the chain of its own terminal.
   */
  terminal: string | null;
  /** The session this one continues: the one a /clear replaced, or the one `ctx resume` resumed. */
  previous_session_id: string | null;
  /** The session that replaced this one after /clear. */
  next_session_id: string | null;
  /** Compactions seen (PreCompact events). */
  compactions: number;
  /** The chain's task id: inherited from the previous session, else CTX_TASK_ID, else `chain-<first 8 of the session id>`. */
  task_id: string;
  /** CLAUDE_CODE_TASK_LIST_ID of the client when set (its task list is `~/.claude/tasks/<id>/`), else null. */
  task_list_id: string | null;
  /** CTX_TEAM when the session was tracked or finalized with it, else null. */
  team: string | null;
  /** Compaction event waiting for its tokens-after, if any. */
  pending_compaction: { path: string; tokens_before: number } | null;
  /**
   * Gemini CLI's PreCompress (it fires before every request, compressing or not): the usage
   * before it, until the next reading shows whether the context fell (a compression) or not.
   */
  pending_compress: { tokens_before: number; trigger: string | null } | null;
  /** When auto-pause began (ISO-8601), if active. */
  pause_started_at: string | null;
  /** Stamp (YYYYMMDD-HHMMSS) of this session's finalized records, reused by later runs. */
  finalized_stamp: string | null;
  /** Last finalize (ISO-8601). */
  finalized_at: string | null;
  /** The incremental transcript reader's position. */
  cursor: TranscriptCursor | null;
  /** At the usage limit: the client's message (a `StopFailure` with `rate_limit`); null once a turn goes through. */
  limit: string | null;
  /** When the limit was seen (ISO-8601), or null. */
  limit_at: string | null;
  /** When the limit resets (ISO-8601, read from the message with its zone), or null when the message names none. */
  resets_at: string | null;
}

/** Fresh state for a session first seen at `iso`. */
export function initialState(sessionId: string, project: string, taskId: string, iso: string): SessionState {
  return {
    version: 1,
    session_id: sessionId,
    project,
    cwd: null,
    transcript_path: null,
    agent: null,
    model: null,
    window_size: 0,
    context_window: 0,
    context_window_source: null,
    used_tokens: 0,
    used_pct: 0,
    peak_tokens: 0,
    peak_pct: 0,
    models: {},
    tool_calls: 0,
    subagent_tool_calls: 0,
    threshold_reached: null,
    auto_pause_active: false,
    started_at: iso,
    updated_at: iso,
    last_event: null,
    last_stop_at: null,
    claude_pid: null,
    terminal: null,
    previous_session_id: null,
    next_session_id: null,
    compactions: 0,
    task_id: taskId,
    task_list_id: null,
    team: null,
    pending_compaction: null,
    pending_compress: null,
    pause_started_at: null,
    finalized_stamp: null,
    finalized_at: null,
    cursor: null,
    limit: null,
    limit_at: null,
    resets_at: null,
  };
}

/** A parsed state file, or undefined when it is not one of ours (missing fields are defaulted). */
export function parseState(value: unknown): SessionState | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as Partial<SessionState>;
  if (v.version !== 1 || typeof v.session_id !== "string" || typeof v.project !== "string") return undefined;
  const base = initialState(
    v.session_id,
    v.project,
    typeof v.task_id === "string" ? v.task_id : v.session_id,
    String(v.started_at ?? ""),
  );
  const out = { ...base, ...v } as SessionState;
  if (!out.models || typeof out.models !== "object") out.models = {};
  // Figures from the file are checked like any input: absurd ones (1e308, negative) read as 0.
  for (const k of ["tool_calls", "compactions", "used_tokens", "peak_tokens", "window_size"] as const)
    out[k] = count(out[k]);
  out.used_pct = Math.round(percentage(out.used_pct) ?? 0);
  out.peak_pct = Math.round(percentage(out.peak_pct) ?? 0);
  out.subagent_tool_calls = count(out.subagent_tool_calls);
  // Names built from these (summary-<task_id>-<stamp>.md) must stay one file name: a planted state
  // with `"task_id": "../../x"` would otherwise make finalize write outside <root>/sessions.
  out.task_id = taskIdFor(out.task_id, v.session_id);
  for (const k of ["limit", "limit_at", "resets_at", "terminal", "agent"] as const)
    if (typeof out[k] !== "string") out[k] = null;
  if (out.finalized_stamp !== null && !/^\d{8}-\d{6}$/.test(String(out.finalized_stamp))) out.finalized_stamp = null;
  return out;
}

/** Zero totals. */
export function emptyTotals(): ModelTotals {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, requests: 0 };
}

/** The state as the user index and the ledger show it, without the reader's cursor. */
export function publicState(state: SessionState): Omit<SessionState, "cursor"> {
  const { cursor: _cursor, ...rest } = state;
  return rest;
}
