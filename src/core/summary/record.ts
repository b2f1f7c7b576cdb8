import type { PauseEntry } from "../track/pause.ts";
import { publicState, type SessionState } from "../track/state.ts";
import { isTrackLevel } from "../track/levels.ts";

/** The finalized session record, written as `session-<stamp>.json` and `.yaml`. */
export interface SessionRecord {
  version: 1;
  /** `session-<stamp>`: the name shared by the .json, .yaml, .md and -incremental.jsonl files. */
  name: string;
  session_id: string;
  task_id: string;
  team: string | null;
  /** Session ids of the /clear chain, oldest first. */
  chain: string[];
  /** ISO-8601 time of this finalize. */
  finalized_at: string;
  /** What started it: session_end, pre_compact, critical or manual. */
  reason: string;
  /** Path of the handoff summary. */
  summary_path: string;
  /** Path of the archived action log, or null when nothing was captured. */
  incremental_path: string | null;
  /** Actions captured after auto-pause. */
  pause_actions: number;
  /** The session state at finalize time (without the reader's cursor). */
  state: Omit<SessionState, "cursor">;
}

/** Builds the record. */
export function buildRecord(
  state: SessionState,
  meta: {
    name: string;
    team: string | null;
    chain: string[];
    finalizedAt: string;
    reason: string;
    summaryPath: string;
    incrementalPath: string | null;
    pauseActions: number;
  },
): SessionRecord {
  return {
    version: 1,
    name: meta.name,
    session_id: state.session_id,
    task_id: state.task_id,
    team: meta.team,
    chain: meta.chain,
    finalized_at: meta.finalizedAt,
    reason: meta.reason,
    summary_path: meta.summaryPath,
    incremental_path: meta.incrementalPath,
    pause_actions: meta.pauseActions,
    state: publicState(state),
  };
}

/** The record as YAML. */
export function recordYaml(record: SessionRecord): string {
  return `${Bun.YAML.stringify(record, null, 2).trimEnd()}\n`;
}

/** The record as Markdown for people: the state at a glance and the newest captured actions. */
export function recordMarkdown(record: SessionRecord, recent: PauseEntry[]): string {
  const s = record.state;
  const lines = [
    `# Session ${record.name}`,
    "",
    `- Session: ${record.session_id} (task ${record.task_id}${record.team ? `, team ${record.team}` : ""})`,
    `- Chain: ${record.chain.join(" → ")}`,
    `- Finalized: ${record.finalized_at} (${record.reason})`,
    `- Context: ${s.used_pct}% (${s.used_tokens}/${s.window_size}), peak ${s.peak_pct}%, level ${isTrackLevel(s.threshold_reached) ? s.threshold_reached : "ok"}`,
    `- Tool calls: ${s.tool_calls}; compactions: ${s.compactions}; auto-pause: ${s.auto_pause_active ? `active since ${s.pause_started_at}` : "off"}`,
    `- Summary: ${record.summary_path}`,
    "",
    "## Tokens by model",
    "",
    "| model | requests | input | output | cache write | cache read |",
    "|---|---|---|---|---|---|",
    ...Object.entries(s.models).map(
      ([m, t]) =>
        `| ${m} | ${t.requests} | ${t.input_tokens} | ${t.output_tokens} | ${t.cache_creation_input_tokens} | ${t.cache_read_input_tokens} |`,
    ),
    "",
    `## Actions captured after auto-pause (${record.pause_actions})`,
    "",
    ...(recent.length
      ? recent.map((e) => `- ${e.timestamp} ${e.type} (${e.context_percentage}%): ${describe(e)}`)
      : ["- (none)"]),
    "",
  ];
  return lines.join("\n");
}

// --- internal ---

function describe(e: PauseEntry): string {
  // A pause log line is parsed JSON of any shape (the file may be planted): no `data` is empty data.
  const d: Record<string, unknown> = e?.data && typeof e.data === "object" ? e.data : {};
  if (e.type === "tool_call")
    return `${String(d.tool)} ${JSON.stringify(d.args_summary ?? {}).slice(0, 160)}${d.is_error ? " (failed)" : ""}`;
  const text = typeof d.summary === "string" ? d.summary : typeof d.reason === "string" ? d.reason : JSON.stringify(d);
  return text.replace(/\s+/g, " ").slice(0, 200);
}
