/** From index entries to the rows `ctx status` shows: level, state, staleness, filters, order. Pure. */
import type { IndexEntry } from "./entry.ts";

import { shownPct } from "../budget.ts";
import { LEVELS, levelAt, levelOfReading, scaleFor, type Ladder, type Level } from "../levels.ts";
import { canonicalModel } from "../model-name.ts";
import { shortId } from "../label.ts";

export { LEVELS, type Level };

/** One session as shown. */
export interface StatusRow {
  session_id: string;
  /** The session's label: its tmux window's name, else a short id (core/label.ts). */
  label: string;
  /** The chain's task id, or "" when unknown. */
  task_id: string;
  project: string;
  /** The client (its adapter's name, `AgentName` in core/agents/), null when its hooks never said. */
  agent: string | null;
  model: string;
  used_pct: number | null;
  used_tokens: number | null;
  window_size: number | null;
  /** The context budget the levels measure against, when it applies (below the window); else null. */
  budget: number | null;
  /** The used share of that budget, in % (null without one). */
  budget_pct: number | null;
  /** Where the window came from (statusline, remembered, client_args, …), null when unknown. */
  context_window_source: string | null;
  level: Level;
  auto_pause_active: boolean;
  /** At the usage limit: the client's message, else null. */
  limit: string | null;
  /** When the limit resets (ISO-8601), or null. */
  resets_at: string | null;
  /** The respawn state in one word (`gone` when its process died), or null without a supervisor. */
  respawn: string | null;
  /** The supervisor's recent events, newest last (from its record), or null. */
  respawn_events: SupervisorEvent[] | null;
  /** True when the session's own state says it ended (SessionEnd, or a /clear replaced it). */
  ended: boolean;
  /** Ended longer ago than `status.ended_visible_s`: hidden unless --all. */
  ended_long_ago: boolean;
  updated_at: string;
  /** Seconds since the last update, or null when unknown. */
  age_s: number | null;
  /** Stopped reporting without ending: not updated for `staleAfterS`, or no update time at all. */
  stale: boolean;
}

/** One event of a respawn supervisor's record. */
export interface SupervisorEvent {
  at: string;
  event: string;
  detail: string | null;
}

/** What the supervisor's own record adds to an index entry. */
export interface Supervisor {
  /** Its process still runs. */
  alive: boolean;
  events: SupervisorEvent[];
}

/** Filters of the command line. */
export interface RowFilter {
  /** Show stale sessions too. */
  all: boolean;
  /** Only sessions at or above this used %. */
  minPct?: number;
  /** Only sessions of these directories (or below them); any of the spellings matches. */
  projects?: readonly string[];
}

/** The row of an entry at `nowMs`. `ended` comes from the session's state file when readable. */
export function toRow(
  e: IndexEntry,
  nowMs: number,
  staleAfterS: number,
  thresholds: Ladder,
  ended = false,
  supervisor?: Supervisor,
  endedVisibleS = 600,
): StatusRow {
  const age = Number.isFinite(e.updated_ms) ? Math.max(0, Math.floor((nowMs - e.updated_ms) / 1000)) : null;
  return {
    session_id: e.session_id,
    label: shortId(e.session_id),
    task_id: e.task_id,
    project: e.project,
    agent: e.agent || null,
    model: canonicalModel(e.model),
    used_pct: e.used_pct,
    used_tokens: e.used_tokens,
    window_size: e.window_size,
    ...budgetOf(e, thresholds),
    context_window_source: e.context_window_source || null,
    level: levelOf(e, thresholds),
    auto_pause_active: e.auto_pause_active,
    limit: e.limit,
    resets_at: e.resets_ms === null ? null : new Date(e.resets_ms).toISOString(),
    respawn: supervisor && !supervisor.alive ? "gone" : respawnState(e.respawn),
    respawn_events: supervisor ? supervisor.events : null,
    ended,
    ended_long_ago: ended && (age === null || age > endedVisibleS),
    updated_at: e.updated_at,
    age_s: age,
    stale: !ended && (age === null || age > staleAfterS),
  };
}

/**
 * The entry's own level when it names one of the ladder, else the level of its used % under `t`
 * (an entry written before the one ladder may say `caution`: its figure decides).
 */
export function levelOf(
  e: Pick<IndexEntry, "threshold_reached" | "used_pct"> & Partial<Pick<IndexEntry, "used_tokens" | "window_size">>,
  t: Ladder,
): Level {
  if (typeof e.threshold_reached === "string" && (LEVELS as readonly string[]).includes(e.threshold_reached))
    return e.threshold_reached as Level;
  if (e.threshold_reached === null || e.used_pct === null) return "ok";
  if (typeof e.used_tokens === "number" && typeof e.window_size === "number" && e.window_size > 0)
    return levelOfReading({ usedTokens: e.used_tokens, windowSize: e.window_size, usedPct: e.used_pct }, t);
  return levelAt(e.used_pct, t);
}

/** The budget and its used % for an entry, when one applies to its window. */
function budgetOf(e: IndexEntry, t: Ladder): { budget: number | null; budget_pct: number | null } {
  if (e.used_tokens === null || e.window_size === null || e.used_pct === null)
    return { budget: null, budget_pct: null };
  const scale = scaleFor({ usedTokens: e.used_tokens, windowSize: e.window_size, usedPct: e.used_pct }, t);
  if (scale.budget === null) return { budget: null, budget_pct: null };
  return { budget: scale.budget, budget_pct: shownPct(e.used_tokens, e.used_pct, scale) };
}

/** The respawn field in one word: a string as is, an object's state/status/phase, else "on". */
export function respawnState(v: unknown): string | null {
  if (v === null || v === undefined || v === false) return null;
  if (typeof v === "string") return v === "" ? null : v;
  if (typeof v === "object" && !Array.isArray(v)) {
    const r = v as Record<string, unknown>;
    for (const k of ["state", "status", "phase", "mode"])
      if (typeof r[k] === "string" && r[k] !== "") return r[k] as string;
  }
  return "on";
}

/** What the filters left, and how many stale and long-ended sessions they hid. */
export interface FilteredRows {
  rows: StatusRow[];
  hiddenStale: number;
  hiddenEnded: number;
}

/** Applies the filters; returns the rows shown and how many stale or long-ended ones were hidden. */
export function filterRows(rows: readonly StatusRow[], f: RowFilter): FilteredRows {
  let hiddenStale = 0;
  let hiddenEnded = 0;
  const out: StatusRow[] = [];
  for (const r of rows) {
    if (f.minPct !== undefined && (r.used_pct === null || r.used_pct < f.minPct)) continue;
    if (f.projects && !f.projects.some((p) => within(r.project, p))) continue;
    if (!f.all && (r.stale || r.ended_long_ago)) {
      if (r.stale) hiddenStale++;
      else hiddenEnded++;
      continue;
    }
    out.push(r);
  }
  return { rows: sortRows(out), hiddenStale, hiddenEnded };
}

/** Rows whose labels clash (a /clear's two sessions in one pane, two panes of one name) get their short id too. */
export function uniqueLabels(rows: readonly StatusRow[]): StatusRow[] {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.label, (seen.get(r.label) ?? 0) + 1);
  return rows.map((r) =>
    (seen.get(r.label) ?? 0) > 1 && r.label !== shortId(r.session_id)
      ? { ...r, label: `${r.label} (${shortId(r.session_id)})` }
      : r,
  );
}

/** A row shown greyed: stale, or ended long ago (both only with --all). */
export function faded(r: Pick<StatusRow, "stale" | "ended_long_ago">): boolean {
  return r.stale || r.ended_long_ago;
}

/** Live sessions first, then ended ones, then faded ones; then by used % (highest first), then the most recent. */
function sortRows(rows: readonly StatusRow[]): StatusRow[] {
  const group = (r: StatusRow) => (faded(r) ? 2 : r.ended ? 1 : 0);
  return [...rows].sort(
    (a, b) =>
      group(a) - group(b) ||
      (b.used_pct ?? -1) - (a.used_pct ?? -1) ||
      (a.age_s ?? Infinity) - (b.age_s ?? Infinity) ||
      (a.session_id < b.session_id ? -1 : 1),
  );
}

// --- internal ---

function within(project: string, dir: string): boolean {
  const d = dir.length > 1 ? dir.replace(/\/+$/, "") : dir;
  return project === d || project.startsWith(d === "/" ? "/" : `${d}/`);
}
