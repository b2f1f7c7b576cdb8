/** The state one `ctx track` call steps from, and the tokens it adds: what it reads besides the state file. */
import type { Config } from "../../core/config-schema.ts";
import type { Deps } from "../../core/deps.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import type { TrackJob } from "../../core/track/job.ts";
import { isValidTaskId, taskIdFor } from "../../core/track/stamp.ts";
import { initialState, type SessionState } from "../../core/track/state.ts";
import { addLineUsage, totalsOf } from "../../core/track/tokens.ts";
import { findClaudePid, ownTty } from "../process/proc.ts";
import { terminalId } from "../../core/terminal-id.ts";
import { layout } from "../../core/layout.ts";
import { findPreviousSession, loadState } from "../session/store.ts";
import { readNewUsage } from "../transcript/stream-usage.ts";
import { rememberCompaction } from "../session/window-source.ts";

/** The state to step from: the existing one, or a new one linked to the session a /clear replaced. */
export function prepare(
  prev: SessionState | undefined,
  job: TrackJob,
  deps: Deps,
  root: string,
  iso: string,
  nowMs: number,
): SessionState {
  const s = prev
    ? { ...prev, models: { ...prev.models } }
    : initialState(job.sessionId, job.project, taskIdFor(deps.env.CTX_TASK_ID, job.sessionId), iso);
  if (typeof job.input.cwd === "string") s.cwd = job.input.cwd;
  if (job.transcriptPath) s.transcript_path = job.transcriptPath;
  if (job.hook) s.agent = job.hook.agent;
  if (typeof job.input.model === "string") s.model = job.input.model;
  if (deps.env.CTX_TEAM?.trim()) s.team = deps.env.CTX_TEAM.trim();
  if (job.event !== "usage" && (s.claude_pid === null || job.event === "SessionStart"))
    s.claude_pid = findClaudePid() ?? s.claude_pid;
  if (job.event !== "usage" && (s.terminal === null || job.event === "SessionStart"))
    s.terminal = terminalId(deps.env, ownTty()) ?? s.terminal;
  if (!prev && job.event === "SessionStart") {
    const before = predecessor(job, deps, root, s, nowMs);
    if (before) {
      s.previous_session_id = before.session_id;
      s.task_id = before.task_id; // one chain, one task id
      // the same client goes on: its model and window until the first reading (no `? --` row after /clear)
      s.model ??= before.model;
      if (s.window_size === 0) s.window_size = s.context_window = before.window_size;
      s.context_window_source ??= before.context_window_source;
    }
  }
  const list = deps.env.CLAUDE_CODE_TASK_LIST_ID;
  if (job.event !== "usage" && isValidTaskId(list)) s.task_list_id = list;
  return s;
}

/** Tokens per model, as the ledger adds them. */
export type TokenDeltas = Record<string, ReturnType<typeof totalsOf>>;

/** What the transcript read by one call held: the tokens, and whether it ends at a usage limit. */
export interface NewTokens {
  deltas: TokenDeltas;
  /** The part read ends at a usage limit (the transcript's API error line), now on the state. */
  limit: boolean;
}

/**
 * Adds the new API messages' tokens to the per-model totals; returns the deltas for the ledger.
 * With `root`, an automatic compaction passed on the way is remembered as window evidence.
 */
export function countTokens(s: SessionState, job: TrackJob, cfg: Config, root?: string): NewTokens {
  if (job.usage) {
    const totals = totalsOf(job.usage.usage);
    addLineUsage(s.models, [], { key: "", model: job.usage.model, totals });
    return { deltas: { [job.usage.model]: totals }, limit: false };
  }
  if (!s.transcript_path) return { deltas: {}, limit: false };
  const got = readNewUsage(s.transcript_path, s.cursor, s.models, cfg["track.read_bytes"], s.model ?? undefined);
  if (!got) return { deltas: {}, limit: false };
  s.cursor = got.cursor;
  // A limit only the transcript records (no StopFailure hook): the same fields the hook would set.
  if (got.limit) {
    s.limit = got.limit.message;
    s.limit_at = new Date(got.limit.at).toISOString();
    s.resets_at = got.limit.resetsAt === null ? null : new Date(got.limit.resetsAt).toISOString();
  }
  if (root && got.autoCompaction) {
    try {
      rememberCompaction(root, s.session_id, got.autoCompaction);
    } catch {
      // a read-only or planted state directory: the next transcript reading decides without it
    }
  }
  return { deltas: got.deltas, limit: got.limit !== undefined };
}

// --- internal ---

/**
 * The session a new one continues: after /clear the one the same Claude Code
 * process ran last; on a startup that `ctx resume` launched, the session it
 * resumed (`CTX_RESUMED_FROM`, kept only when that session is known here).
 */
function predecessor(
  job: TrackJob,
  deps: Deps,
  root: string,
  s: SessionState,
  nowMs: number,
): SessionState | undefined {
  if (job.input.source === "clear")
    return s.claude_pid === null ? undefined : findPreviousSession(root, s.claude_pid, s.session_id, nowMs);
  const from = deps.env.CTX_RESUMED_FROM;
  if (job.input.source === "compact" || !isValidSessionId(from) || from === s.session_id) return undefined;
  return loadState(layout(root).stateFile(from) ?? "", nowMs);
}
