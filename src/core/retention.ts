/**
 * Retention: which of a project's sessions and summaries `ctx prune` removes (docs/state.md,
 * "Retention"). By age (`retention.max_age_days`) and by count per chain
 * (`retention.keep_per_chain`), never a live session's state, never the newest summary of a
 * chain that is still open. Pure: the io side lists the files and removes what this returns.
 */
import { STATE_NAMES } from "./layout.ts";
import { taskOfSummary } from "./resume/hook-decision.ts";
import { stampOf } from "./resume/summaries.ts";

/** The two limits, in ms and summaries (`false`: no limit). */
export interface RetentionLimits {
  maxAgeMs: number | false;
  keepPerChain: number | false;
}

/** One session state of the project, as retention sees it. */
export interface RetainedSession {
  id: string;
  /** The chain's task id. */
  task: string;
  /** Its last update (the state's `updated_at`, else its file's mtime), ms. */
  updatedMs: number;
  /** SessionEnd seen, or a /clear replaced it. */
  ended: boolean;
  /** Its Claude Code process still runs. */
  alive: boolean;
}

/** One summary file (`summary-<task>-<stamp>.md`). */
export interface RetainedSummary {
  name: string;
  /** Its file's mtime, ms. */
  mtimeMs: number;
}

/** What to remove. */
export interface RetentionPlan {
  /** Session ids whose state (and the files named after them) go. */
  sessions: string[];
  /** Summary names (`.md`) that go, with their twin and their session record. */
  summaries: string[];
  /** Chains with a session that is kept and not ended. */
  openChains: Set<string>;
}

/** True when a file last changed at `ms` is past the age limit at `nowMs` (a time in the future never is). */
export function expired(ms: number, nowMs: number, maxAgeMs: number | false): boolean {
  return maxAgeMs !== false && Number.isFinite(ms) && nowMs - ms > maxAgeMs;
}

/** A session's state is kept while it is live (its process runs and it has not ended) or young enough. */
function keepSession(s: RetainedSession, nowMs: number, limits: RetentionLimits): boolean {
  return (s.alive && !s.ended) || !expired(s.updatedMs, nowMs, limits.maxAgeMs);
}

/** The plan for one project at `nowMs`. */
export function planRetention(
  sessions: readonly RetainedSession[],
  summaries: readonly RetainedSummary[],
  nowMs: number,
  limits: RetentionLimits,
): RetentionPlan {
  const dropSessions: string[] = [];
  const openChains = new Set<string>();
  for (const s of sessions) {
    if (!keepSession(s, nowMs, limits)) dropSessions.push(s.id);
    else if (!s.ended) openChains.add(s.task);
  }
  const byChain = new Map<string, RetainedSummary[]>();
  for (const f of summaries) {
    const task = taskOfSummary(f.name);
    if (task === undefined) continue; // not a name ctx writes: left alone
    const list = byChain.get(task) ?? [];
    list.push(f);
    byChain.set(task, list);
  }
  const dropSummaries: string[] = [];
  for (const [task, list] of byChain) {
    list.sort((a, b) => stampOf(b.name).localeCompare(stampOf(a.name)) || b.mtimeMs - a.mtimeMs);
    list.forEach((f, i) => {
      if (i === 0 && openChains.has(task)) return; // the newest summary of an open chain: always kept
      const over = limits.keepPerChain !== false && i >= Math.max(1, limits.keepPerChain);
      if (over || expired(f.mtimeMs, nowMs, limits.maxAgeMs)) dropSummaries.push(f.name);
    });
  }
  return { sessions: dropSessions, summaries: dropSummaries, openChains };
}

/** The session record names that go with a summary: `session-<stamp>.{json,yaml,md}` and its `-incremental.jsonl`. */
export function recordNamesOf(summaryName: string): string[] {
  const raw = /-(\d{8}-\d{6})\.md$/.exec(summaryName)?.[1];
  if (!raw) return [];
  const base = STATE_NAMES.record(raw);
  return [`${base}.json`, `${base}.yaml`, `${base}.md`, `${base}-incremental.jsonl`];
}
