/**
 * Every configuration key ctx knows, with its default. Keys are `section.name`;
 * the environment variable for `a.b_c` is `CTX_A_B_C`.
 */

import { type Kind, type Spec, asUser, bool, lvl, num, pct, str, thr, tok } from "./config-spec.ts";
import { RESPAWN_SCHEMA } from "./config-schema-respawn.ts";
import { LEVEL_TABLE } from "./levels.ts";

export type { Kind };

/** The default context budget: 200k tokens (why: docs/budget.md). */
export const DEFAULT_BUDGET = 200_000;

/** The schema: one entry per key. The README's configuration table mirrors it. */
export const SCHEMA = {
  "context.window_size": thr(
    false,
    "Context window in tokens when neither the status line nor the running client tells it (6th source of 7, see 'How the window is found'; off = from the model name: 1M for [1m] models, models the client runs natively at 1M or usage above 200k, else 200k)",
  ),
  "context.budget": tok(
    DEFAULT_BUDGET,
    "The context budget in tokens (200k, 1.2M): the levels' % are shares of min(window, budget), so a 1M window warns at 65% of 200k = 130k (off = the whole window; see docs/budget.md)",
  ),
  "levels.warning": lvl(
    LEVEL_TABLE.warning.default,
    "Level warning from this used % of min(window, context.budget), or from this many tokens (130k): the agent is told CONTEXT WARNING (wrap up, no new exploration); yellow for the user",
  ),
  "levels.critical": lvl(
    LEVEL_TABLE.critical.default,
    "Level critical from this used % (or tokens, 150k): the agent is told CONTEXT CRITICAL (finish the step, leave it resumable) and ctx finalize writes the handoff summary in the background; red",
  ),
  "levels.auto_pause": lvl(
    LEVEL_TABLE.auto_pause.default,
    "Level auto_pause from this used % (or tokens; never after the client's own auto-compact point): actions are captured for the handoff and a supervised session is cycled; red, paused",
  ),
  "limits.checkpoint_at": pct(
    90,
    "At this used % of the plan's 5-hour usage window (the status line's rate_limits), the agent is told once per window to checkpoint; from it on ctx respawn and ctx run start no cycle or leg before the window resets (off = never)",
  ),
  "statusline.display": str(
    "raw",
    "Percentage shown: raw (= Claude Code's used_percentage), usable (against the auto-compact threshold, as GSD shows it), footer (as the client's own 'N% context used' footer: against the window minus 20k reserved for output) or both (raw, then usable)",
    ["raw", "usable", "footer", "both"],
  ),
  "statusline.autocompact_buffer_pct": {
    ...num(16.5, "Share of the window reserved before auto-compaction, for the usable display"),
    max: 99,
  },
  "statusline.git_branch": bool(true, "Show the git branch (read from .git/HEAD, no subprocess)"),
  "statusline.stdin_timeout_ms": num(1000, "Give up on a stdin that never closes after this long"),
  "statusline.chain": asUser(
    str(
      "",
      "Your own status line command, run with the same payload and shown beside ctx's (ctx install sets it up as `ctx statusline --chain CMD`, which wins over this key); from a project's file only once you trust it (ctx trust)",
    ),
  ),
  "statusline.chain_position": str("first", "Where ctx's part goes beside the chained command's: first or last", [
    "first",
    "last",
  ]),
  "statusline.chain_timeout_ms": num(
    2000,
    "Give up on the chained status line command after this long: its whole process group is killed and ctx's part is shown alone",
  ),
  "monitor.debounce_calls": num(5, "Tool uses between two repeated warnings of the same level"),
  "monitor.bridge_max_age_s": num(60, "A bridge file older than this is stale; the transcript is read instead"),
  "monitor.tail_bytes": num(
    8 * 1024 * 1024,
    "How far back from the end of the transcript to look for the latest usage",
  ),
  "monitor.transcript_wait_ms": num(
    300,
    "Without a fresh bridge, wait up to this long for the transcript to show the tool call's request (Claude Code writes it in batches)",
  ),
  "monitor.stdin_timeout_ms": num(2000, "Give up on hook stdin after this long"),
  "resume.inject_max_age_s": thr(
    172800,
    "Resume hook: after /clear or compaction, inject only a summary younger than this (off = any age)",
  ),
  "resume.hint_max_age_s": thr(
    604800,
    "Resume hook: on startup, hint at an unconsumed summary younger than this (off = never hint)",
  ),
  "resume.pending_max_age_s": thr(3600, "Resume hook: ignore a respawn-pending.json older than this (off = any age)"),
  "resume.finalize_wait_ms": num(
    10000,
    "Resume hook: after /clear, wait up to this long for a summary the previous session's finalize is still writing (less when that finalize ends without one)",
  ),
  "status.stale_after_s": num(
    3600,
    "ctx status: a session that stopped reporting without ending, not updated for this long, is stale (hidden unless --all, greyed with it)",
  ),
  "status.ended_visible_s": num(
    600,
    "ctx status: an ended session is shown (state ended) for this long after its last update, then hidden unless --all",
  ),
  "status.watch_interval_s": num(2, "ctx status --watch: seconds between refreshes"),
  "track.finalize_on_end": str(
    "pause",
    "When SessionEnd runs ctx finalize in the background: pause (after auto-pause, or when the session has a summary or reached critical), always or never",
    ["pause", "always", "never"],
  ),
  "track.read_bytes": num(
    32 * 1024 * 1024,
    "Most transcript bytes one track run reads for token totals (the rest is read by the next runs)",
  ),
  "track.stdin_timeout_ms": num(2000, "Give up on hook stdin after this long"),
  "track.transcript_wait_ms": num(
    300,
    "From half the warning level on (and before the session's first reading), how long a tool hook waits for the client to flush the tool's request to the transcript (its usage is read from there)",
  ),
  "retention.max_age_days": thr(
    30,
    "Retention: remove a session's state, index entry and files, and summaries and records, not updated for this many days (off = keep by age; a live session's state and the newest summary of an open chain are always kept)",
  ),
  "retention.keep_per_chain": thr(
    5,
    "Retention: keep at most this many summaries (and their session records) per chain, the newest (off = no limit)",
  ),
  "retention.interval_h": num(
    24,
    "Retention: a SessionStart starts the background pruning (ctx prune) at most once per this many hours per project",
  ),
  "metrics.textfile_dir": asUser(
    str(
      "",
      "ctx metrics: a directory (node_exporter's --collector.textfile.directory) that hooks refresh ctx.prom in, at most once a minute, in the background (empty = off)",
    ),
  ),
  "opencode.replace_compaction_summary": bool(
    false,
    "OpenCode: ctx's handoff summary replaces the text of OpenCode's own compaction summary (ctx's plugin; OpenCode still sends its compaction request)",
  ),
  ...RESPAWN_SCHEMA,
} as const satisfies Record<string, Spec<Kind, unknown>>;

/** A configuration key. */
export type ConfigKey = keyof typeof SCHEMA;

type ValueOf<S> = S extends { kind: "threshold" }
  ? number | false
  : S extends { kind: "number" }
    ? number
    : S extends { kind: "boolean" }
      ? boolean
      : string;

/** A fully resolved configuration: every key has a value of its kind. */
export type Config = { [K in ConfigKey]: ValueOf<(typeof SCHEMA)[K]> };

/** The environment variable that overrides `key`. */
export function envName(key: string): string {
  return `CTX_${key.replace(/\./g, "_").toUpperCase()}`;
}

/** A key that is still read but no longer documented: the key to use instead, and how its value converts. */
export interface Deprecated {
  /** The key to use instead. */
  use: ConfigKey;
  /** Converts the old key's number to the new key's (remaining % to used %, or as is). */
  convert: (n: number) => number;
}

const usedFromRemaining = (n: number): number => 100 - n;
const same = (n: number): number => n;

/**
 * The old level keys, in rising priority within one layer (a later one wins, and the new key
 * itself wins over all of them): the monitor's remaining-% keys and the track levels.
 * `track.caution` has no level of its own any more: it reads as the first rung, `levels.warning`.
 */
export const DEPRECATED: Record<string, Deprecated> = {
  "track.caution": { use: "levels.warning", convert: same },
  "track.warning": { use: "levels.warning", convert: same },
  "monitor.warning_remaining": { use: "levels.warning", convert: usedFromRemaining },
  "track.critical": { use: "levels.critical", convert: same },
  "monitor.critical_remaining": { use: "levels.critical", convert: usedFromRemaining },
  "track.auto_pause": { use: "levels.auto_pause", convert: same },
};
