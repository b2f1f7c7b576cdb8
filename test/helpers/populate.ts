/**
 * A project and a per-user index holding many sessions and summaries, as months of use leave them:
 * for the retention tests (test/hardening/retention.test.ts) and the benchmark (bench/retention.ts).
 * Files are written directly (what ctx track and ctx finalize write, minimal) with their times set.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What to create. */
export interface PopulateSpec {
  /** Sessions (index entry, state file, monitor, window, git-start and bridge files each). */
  sessions: number;
  /** Sessions per chain: consecutive sessions share a task id and are linked by next_session_id. */
  perChain: number;
  /** Summaries (with twin and session record), spread over the chains, at most one per session. */
  summaries: number;
  /** The age step between two consecutive sessions, in ms (session 0 is the newest). */
  stepMs: number;
  /** Now. */
  nowMs: number;
  /** How many of the newest sessions are still running (not ended). */
  live?: number;
}

/** What was created, for assertions. */
export interface Populated {
  root: string;
  sessionIds: string[];
  /** Session index → chain task id. */
  chainOf: (i: number) => string;
  /** Session index → updated time in ms. */
  timeOf: (i: number) => number;
  /** The summary file names, with the session index they belong to. */
  summaries: { name: string; session: number }[];
}

/** The session id of session `i`. */
export function sid(i: number): string {
  return `sess-${String(i).padStart(5, "0")}-0000-4000-8000-000000000000`;
}

/** Two-digit padding. */
const p2 = (n: number) => String(n).padStart(2, "0");

/** `YYYYMMDD-HHMMSS` of a time, as finalize stamps (UTC). */
export function stampAt(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}-${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}${p2(d.getUTCSeconds())}`;
}

/** Creates the files for `spec` in `project` (state root `<project>/.ctx`) and the user dirs of `env`. */
export function populate(project: string, env: Record<string, string>, spec: PopulateSpec): Populated {
  const root = join(project, ".ctx");
  const dirs = {
    sessionsState: join(root, "state", "sessions"),
    monitor: join(root, "state", "monitor"),
    window: join(root, "state", "window"),
    gitStart: join(root, "state", "git-start"),
    records: join(root, "sessions"),
    index: join(env.XDG_STATE_HOME!, "ctx", "sessions"),
    tmp: env.TMPDIR!,
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true, mode: 0o700 });
  writeFileSync(join(root, ".gitignore"), "*\n");
  const chainOf = (i: number) => `chain-${String(Math.floor(i / spec.perChain)).padStart(8, "0")}`;
  const timeOf = (i: number) => spec.nowMs - i * spec.stepMs;
  const live = spec.live ?? 0;
  const at = (path: string, text: string, ms: number) => {
    writeFileSync(path, text, { mode: 0o600 });
    utimesSync(path, ms / 1000, ms / 1000);
  };
  const ids: string[] = [];
  for (let i = 0; i < spec.sessions; i++) {
    const id = sid(i);
    ids.push(id);
    const ms = timeOf(i);
    const iso = new Date(ms).toISOString();
    // Within a chain the older session (higher i) was cleared into the newer one (i - 1).
    const sameChainNext = i > 0 && chainOf(i - 1) === chainOf(i) ? sid(i - 1) : null;
    const ended = i >= live;
    const state = {
      version: 1,
      session_id: id,
      project,
      cwd: project,
      transcript_path: join(project, "transcripts", `${id}.jsonl`),
      model: "claude-sonnet-4-5",
      window_size: 200000,
      context_window: 200000,
      context_window_source: "statusline",
      used_tokens: 50000 + (i % 100) * 1000,
      used_pct: 25 + (i % 50),
      peak_tokens: 150000,
      peak_pct: 75,
      models: {},
      tool_calls: 12,
      subagent_tool_calls: 0,
      threshold_reached: null,
      auto_pause_active: false,
      started_at: iso,
      updated_at: iso,
      last_event: ended && !sameChainNext ? "SessionEnd" : "PostToolUse",
      last_stop_at: null,
      claude_pid: null,
      previous_session_id: i + 1 < spec.sessions && chainOf(i + 1) === chainOf(i) ? sid(i + 1) : null,
      next_session_id: ended ? sameChainNext : null,
      compactions: 0,
      task_id: chainOf(i),
      task_list_id: null,
    };
    at(join(dirs.sessionsState, `${id}.json`), `${JSON.stringify(state, null, 2)}\n`, ms);
    const entry = {
      version: 1,
      session_id: id,
      task_id: chainOf(i),
      project,
      root,
      state_path: join(dirs.sessionsState, `${id}.json`),
      model: state.model,
      used_pct: state.used_pct,
      used_tokens: state.used_tokens,
      window_size: 200000,
      context_window: 200000,
      context_window_source: "statusline",
      threshold_reached: null,
      auto_pause_active: false,
      respawn: null,
      updated_at: iso,
    };
    at(join(dirs.index, `${id}.json`), `${JSON.stringify(entry, null, 2)}\n`, ms);
    at(join(dirs.monitor, `${id}.json`), `{"version":1,"calls":3}\n`, ms);
    at(join(dirs.window, `${id}.json`), `{"claude_pid":1,"choice":{"found":false}}\n`, ms);
    at(join(dirs.gitStart, `${id}.json`), `{"top":"${project}","head":null,"dirty":{}}\n`, ms);
    at(join(dirs.tmp, `claude-ctx-${id}.json`), `{"session_id":"${id}","used_pct":30}\n`, ms);
  }
  const summaries: { name: string; session: number }[] = [];
  const every = spec.summaries > 0 ? spec.sessions / spec.summaries : Infinity;
  for (let k = 0; k < spec.summaries; k++) {
    const i = Math.min(spec.sessions - 1, Math.floor(k * every));
    const ms = timeOf(i) - 1000;
    const stamp = stampAt(ms);
    const name = `summary-${chainOf(i)}-${stamp}.md`;
    at(join(dirs.records, name), `# Session summary\n\n## Goal\nwork of ${sid(i)}\n\n## How to continue\nGo on.\n`, ms);
    at(join(dirs.records, name.replace(/\.md$/, ".json")), `{"version":1,"task_id":"${chainOf(i)}"}\n`, ms);
    for (const ext of ["json", "yaml", "md"])
      at(join(dirs.records, `session-${stamp}.${ext}`), `{"session_id":"${sid(i)}"}\n`, ms);
    summaries.push({ name, session: i });
  }
  return { root, sessionIds: ids, chainOf, timeOf, summaries };
}
