/**
 * Which chain a SessionStart continues, for `ctx resume --hook`: after /clear
 * the cleared session's (the link `ctx track` makes: same Claude Code process),
 * after a compaction the session's own. Also the chains that are live now.
 */
import { join } from "node:path";
import type { Config } from "../../core/config-schema.ts";
import { newestFirst } from "../../core/resume/summaries.ts";
import { taskOfSummary } from "../../core/resume/hook-decision.ts";
import type { SessionState } from "../../core/track/state.ts";
import { handoffRefreshPending } from "../../core/track/step.ts";
import { findClaudePid } from "../process/proc.ts";
import { layout } from "../../core/layout.ts";
import { findPreviousSession, loadState, statesChangedSince } from "../session/store.ts";
import { listSummaries } from "./summaries.ts";
import { lockState } from "../fs/lock.ts";
import { FINALIZE_LOCK } from "../finalize/pending.ts";

/** The chain a new session continues, and how it was found. */
export interface ChainContext {
  /** The chain's task id; undefined when it cannot be determined. */
  chain?: string;
  /** The session /clear replaced, when known. */
  predecessor?: SessionState;
  /** For CTX_DEBUG: which link gave the chain. */
  how: string;
}

/** Finds the chain of a SessionStart. */
export function chainOf(root: string, sessionId: string, source: string | undefined, nowMs: number): ChainContext {
  const own = loadState(layout(root).stateFile(sessionId) ?? "", nowMs);
  if (source === "compact")
    return own ? { chain: own.task_id, how: `own chain after compaction` } : { how: "no state for this session" };
  if (source !== "clear") return { how: `source ${source ?? "none"}` };
  // track may have linked this session already; else make the same link it makes.
  const linked = own?.previous_session_id
    ? loadState(layout(root).stateFile(own.previous_session_id) ?? "", nowMs)
    : undefined;
  const pid = linked ? undefined : (own?.claude_pid ?? findClaudePid());
  const before = linked ?? (pid ? findPreviousSession(root, pid, sessionId, nowMs) : undefined);
  if (!before) return { how: pid ? `no earlier session of claude pid ${pid}` : "no Claude Code process found" };
  return { chain: before.task_id, predecessor: before, how: `cleared session ${before.session_id}` };
}

/**
 * Task ids of chains with a live session other than `exclude`: reported within
 * `staleMs` and not ended.
 */
export function liveChains(root: string, exclude: string, nowMs: number, staleMs: number): Set<string> {
  const out = new Set<string>();
  const dir = layout(root).sessionsState;
  // A state reported within staleMs was written within it: older files are not read.
  const names = statesChangedSince(root, nowMs - staleMs - 1000).filter((n) => n !== `${exclude}.json`);
  for (const name of names.slice(0, 2000)) {
    const s = loadState(join(dir, name), nowMs);
    const at = s ? Date.parse(s.updated_at) : Number.NaN;
    if (s && s.last_event !== "SessionEnd" && Number.isFinite(at) && nowMs - at <= staleMs) out.add(s.task_id);
  }
  return out;
}

/**
 * The cleared session while the summary its SessionEnd writes (again) is still to come: it has a summary
 * (written at CRITICAL) or reached CRITICAL (core/track/step.ts handoffRefreshPending), and no finalize has
 * started since it ended (or since `doneSince`, when the resume hook started one itself). Undefined
 * otherwise, and with `track.finalize_on_end` never.
 */
export function refreshDue(
  root: string,
  ctx: ChainContext,
  cfg: Config,
  nowMs: number,
  doneSince?: number,
): SessionState | undefined {
  if (!ctx.predecessor || ctx.chain === undefined || cfg["track.finalize_on_end"] === "never") return undefined;
  const p = loadState(layout(root).stateFile(ctx.predecessor.session_id) ?? "", nowMs) ?? ctx.predecessor;
  return handoffRefreshPending(p, doneSince) ? p : undefined;
}

/**
 * True while the cleared session's summary is probably still being written: a
 * finalize is due for it (it was auto-paused, `track.finalize_on_end` is
 * `always`, or a live finalize holds its lock) and the chain's newest summary is
 * older than the session's last update; or the refresh its SessionEnd writes is
 * still to come ({@link refreshDue}). A finalize lock whose holder is dead means
 * that finalize was killed: nothing is coming, so nothing is pending.
 */
export function chainSummaryPending(
  root: string,
  ctx: ChainContext,
  cfg: Config,
  nowMs: number,
  doneSince?: number,
): boolean {
  if (!ctx.predecessor || ctx.chain === undefined) return false;
  const files = layout(root);
  const p = loadState(files.stateFile(ctx.predecessor.session_id) ?? "", nowMs) ?? ctx.predecessor;
  const mode = cfg["track.finalize_on_end"];
  const lock = finalizeLockState(files.finalizeLock(p.session_id));
  if (lock === "stale") return false;
  if (refreshDue(root, ctx, cfg, nowMs, doneSince)) return true;
  const due = lock === "held" || mode === "always" || (mode === "pause" && p.auto_pause_active);
  if (!due) return false;
  const newest = newestFirst(
    listSummaries(root).filter((f) => taskOfSummary(f.name) === ctx.chain),
    nowMs,
  )[0];
  return !newest || newest.mtimeMs < (Date.parse(p.updated_at) || 0);
}

/** Whether a finalize holds the lock `path` now: "held" only while its holder lives. */
export function finalizeLockState(path: string | undefined): "free" | "held" | "stale" {
  return path === undefined ? "free" : lockState(path, FINALIZE_LOCK.staleMs);
}
