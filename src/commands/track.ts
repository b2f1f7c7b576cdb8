import type { Config } from "../core/config-schema.ts";
import { CtxError, debug, type Deps } from "../core/deps.ts";
import { parseHookInput, str } from "../core/hook-input.ts";
import { join } from "../core/pathx.ts";
import { INDEX_DIR, layout, STATE_DIRS, userLayout } from "../core/layout.ts";
import { projectDir, stateRoot } from "../core/paths.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { ladderOf } from "../core/levels.ts";
import { levelMessage, type Thresholds } from "../core/track/levels.ts";
import { isValidTaskId, taskIdFor } from "../core/track/stamp.ts";
import { initialState, type Level, type SessionState } from "../core/track/state.ts";
import {
  normalizeEvent,
  trackStep,
  type FinalizeOnEnd,
  type StepResult,
  type TrackReading,
} from "../core/track/step.ts";
import { addLineUsage, totalsOf } from "../core/track/tokens.ts";
import { contextTokens, reading } from "../core/usage.ts";
import { envConfig, loadConfig } from "../io/config.ts";
import { realDirsUnder } from "../io/fs/fsx.ts";
import { LockTimeout, type LockOptions } from "../io/fs/lock.ts";
import { findClaudePid } from "../io/process/proc.ts";
import { recordGitStart } from "../io/git/changes.ts";
import { appendPause, findPreviousSession, linkNext, loadState, lockBudget, updateState } from "../io/session/store.ts";
import { writeEntry } from "../io/session/index.ts";
import { addLedgerTokens, completeCompactionEvent, writeCompactionEvent } from "../io/session/events.ts";
import { readNewUsage } from "../io/transcript/stream-usage.ts";
import { sweepStaleTemps } from "../io/fs/sweep.ts";
import { currentReading, hookWait, sessionWindow } from "../io/session/usage-source.ts";
import { startFinalize } from "../io/finalize/spawn.ts";

/**
 * The longest all lock waits of one track run may take together: well under the 30 s the hook is
 * registered with, and long enough that a burst of parallel tool calls on a small machine loses no update.
 */
const TRACK_LOCK_BUDGET_MS = 20_000;

/** What one track run did. */
export interface TrackResult {
  state?: SessionState;
  /** The level newly crossed, if any. */
  report?: Level | null;
  /** The hook output (a systemMessage), when a level was newly crossed. */
  output?: { systemMessage: string };
  /** True when a background finalize was started. */
  finalizing?: boolean;
}

/** One event to track, from a hook or from the plain mode. */
interface Job {
  sessionId: string;
  event: string;
  input: Record<string, unknown>;
  project: string;
  transcriptPath?: string;
  reading?: TrackReading;
  /** Plain mode: per-model usage given by the caller. */
  usage?: { model: string; usage: Record<string, unknown> };
}

/**
 * `ctx track`: a hook for SessionStart, UserPromptSubmit, PostToolUse(Failure),
 * Stop, PreCompact and SessionEnd, or the plain mode
 * `ctx track --session ID --usage JSON` (usage JSON also on stdin).
 */
export async function run(argv: string[], deps: Deps): Promise<number | void> {
  // Hooks run `ctx track` without arguments; any argument means the scripted mode, called by
  // bots and people: it checks its arguments and exits 2 on bad ones (the hook mode always exits 0).
  // The parser (node:util) costs hook start-up time: it loads only for arguments.
  const plain = argv.length > 0;
  let values: Record<string, unknown> = {};
  if (plain) {
    try {
      values = (await import("./args.ts")).parseFor("track", argv).values;
      if (values.session === undefined) throw new CtxError(2, "the scripted mode needs --session ID");
    } catch (err) {
      deps.stderr(`ctx track: ${(err as Error).message}\nRun 'ctx track --help'.\n`);
      return 2;
    }
  }
  const stdin =
    plain && typeof values.usage === "string"
      ? { text: "" }
      : await deps.readStdin({ timeoutMs: envConfig(deps.env)["track.stdin_timeout_ms"], maxBytes: 64 * 1024 * 1024 });
  const job = plain ? plainJob(values, stdin.text, deps) : hookJob(parseHookInput(stdin.text), deps);
  if (typeof job === "string") {
    deps.stderr(`ctx track: ${job}\nRun 'ctx track --help'.\n`);
    return 2;
  }
  if (!job) return;
  const result = await track(job, deps);
  if (result.output) deps.stdout(`${JSON.stringify(result.output)}\n`);
}

/** Applies one job to the session's state and carries out what the step decided. */
export async function track(job: Job, deps: Deps): Promise<TrackResult> {
  const cfg = loadConfig(deps, job.project);
  const root = stateRoot(deps.env, job.project);
  const nowMs = deps.now();
  const iso = new Date(nowMs).toISOString();
  // Every lock wait of this run shares one budget, well under the 30 s the hook is registered with.
  const lock = lockBudget(TRACK_LOCK_BUDGET_MS);
  const reading = job.reading ?? readingFor(job, deps, cfg);
  const apply = (prev: SessionState | undefined): Done => {
    const s = prepare(prev, job, deps, root, iso, nowMs);
    const deltas = countTokens(s, job, cfg);
    const step = trackStep(
      s,
      { event: job.event, iso, input: job.input, reading },
      thresholds(cfg),
      cfg["track.finalize_on_end"] as FinalizeOnEnd,
    );
    // These two may fail on their own (a directory or a FIFO planted at their path): the state is still written.
    const attempt = (what: string, fn: () => void) => {
      try {
        fn();
      } catch (err) {
        debug(deps, `track: ${what}: ${(err as Error).message}`);
      }
    };
    if (step.compactionStart) {
      const trigger = typeof job.input.trigger === "string" ? job.input.trigger : null;
      const before = step.compactionStart.tokens_before;
      attempt("compaction event", () => {
        const path = writeCompactionEvent(root, step.state, nowMs, iso, trigger, before);
        step.state.pending_compaction = { path, tokens_before: before };
      });
    }
    if (step.compression) {
      // Gemini CLI: the compression is known once it happened; its event gets both figures at once.
      const c = step.compression;
      attempt("compaction event", () => {
        const path = writeCompactionEvent(root, step.state, nowMs, iso, c.trigger, c.tokens_before);
        step.compactionDone = { path, tokens_after: c.tokens_after };
      });
    }
    attempt("pause log", () => appendPause(root, job.sessionId, step.pause));
    return { state: step.state, step, deltas, linked: !prev ? s.previous_session_id : null };
  };
  let done: Done;
  let stepped: Done | undefined; // set once the step ran (the write after it may still fail)
  try {
    done = updateState(root, job.sessionId, nowMs, (prev) => (stepped = apply(prev)), lock());
  } catch (err) {
    // Live hooks hold the lock past our budget: they update the state and report the level (as before).
    if (err instanceof LockTimeout) throw err;
    // State cannot be written (read-only, full disk, a symlinked root): the level message must
    // still reach the agent and the user, stepped from the last state we can read.
    debug(deps, `track: state not written (${(err as Error).message}); carrying on without it`);
    const path = layout(root).stateFile(job.sessionId);
    done = stepped ?? apply(path && realDirsUnder(root, STATE_DIRS.sessionsState) ? loadState(path, nowMs) : undefined);
  }
  return afterUpdate(done, job, deps, root, iso, nowMs, lock);
}

// --- internal ---

function hookJob(raw: Record<string, unknown>, deps: Deps): Job | undefined {
  const name = str(raw, "hook_event_name");
  if (!name || !isValidSessionId(raw.session_id)) return undefined;
  const { event, input } = normalizeEvent(name, raw);
  const transcriptPath = str(input, "transcript_path");
  const project = projectDir(deps.env, input.cwd, deps.cwd);
  return {
    sessionId: raw.session_id,
    event,
    input,
    project,
    transcriptPath: transcriptPath?.startsWith("/") ? transcriptPath : undefined,
  };
}

/** The plain mode's job, or the reason its input is unusable. */
function plainJob(values: Record<string, unknown>, stdinText: string, deps: Deps): Job | string {
  const sessionId = values.session;
  if (!isValidSessionId(sessionId)) return "--session needs a session id of [A-Za-z0-9_-] (1-128 characters)";
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof values.usage === "string" ? values.usage : stdinText);
  } catch {
    return "the usage is not JSON: pass --usage '{\"input_tokens\":…}' or the usage (or a whole API response) on stdin";
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return "the usage must be a JSON object";
  const top = parsed as Record<string, unknown>;
  // A whole Messages API response carries its usage under `usage`, next to `model`.
  const u =
    top.usage && typeof top.usage === "object" && !Array.isArray(top.usage)
      ? (top.usage as Record<string, unknown>)
      : top;
  const project = projectDir(deps.env, undefined, deps.cwd);
  const given = typeof values.model === "string" ? values.model : typeof top.model === "string" ? top.model : undefined;
  // Without a model, the tokens belong to the model the session already has.
  const model =
    given ?? loadState(layout(stateRoot(deps.env, project)).stateFile(sessionId) ?? "", deps.now())?.model ?? "unknown";
  return { sessionId, event: "usage", input: {}, project, usage: { model, usage: u } };
}

function readingFor(job: Job, deps: Deps, cfg: Config): TrackReading | undefined {
  if (job.usage) {
    const used = contextTokens(job.usage.usage);
    const model = job.usage.model === "unknown" ? undefined : job.usage.model;
    const w = sessionWindow(deps.env, cfg, { sessionId: job.sessionId, model, usedTokens: used });
    return { ...reading(used, w.window), model, windowSource: w.source };
  }
  // The client writes its transcript in batches: a Stop (once per turn) always waits for the
  // turn's last message; a tool hook only near the levels, where one request late matters.
  // A subagent's tool line is never written to the parent's transcript: do not wait for it there.
  const subagent = job.input.agent_id !== undefined && job.input.agent_id !== null;
  const wait =
    !subagent && (job.event === "Stop" || nearLevels(job, deps, cfg))
      ? hookWait(job.input, cfg["track.transcript_wait_ms"], deps.now)
      : undefined;
  if (wait) wait.waitMissing = () => false; // past the first turns the transcript exists; a missing one will not appear
  const place = { root: stateRoot(deps.env, job.project), project: job.project };
  const r = currentReading(deps.env, deps.now(), cfg, job.sessionId, job.transcriptPath, wait, place);
  if (r) debug(deps, `track: window ${r.windowSize} (${r.windowSource})`);
  return r
    ? {
        usedTokens: r.usedTokens,
        windowSize: r.windowSize,
        usedPct: r.usedPct,
        model: r.model,
        windowSource: r.windowSource,
      }
    : undefined;
}

/** The state to step from: the existing one, or a new one linked to the session a /clear replaced. */
function prepare(
  prev: SessionState | undefined,
  job: Job,
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
  if (typeof job.input.model === "string") s.model = job.input.model;
  if (deps.env.CTX_TEAM?.trim()) s.team = deps.env.CTX_TEAM.trim();
  if (job.event !== "usage" && (s.claude_pid === null || job.event === "SessionStart"))
    s.claude_pid = findClaudePid() ?? s.claude_pid;
  if (!prev && job.event === "SessionStart") {
    const before = predecessor(job, deps, root, s, nowMs);
    if (before) {
      s.previous_session_id = before.session_id;
      s.task_id = before.task_id; // one chain, one task id
    }
  }
  const list = deps.env.CLAUDE_CODE_TASK_LIST_ID;
  if (job.event !== "usage" && isValidTaskId(list)) s.task_list_id = list;
  return s;
}

/**
 * The session a new one continues: after /clear the one the same Claude Code
 * process ran last; on a startup that `ctx resume` launched, the session it
 * resumed (`CTX_RESUMED_FROM`, kept only when that session is known here).
 */
function predecessor(job: Job, deps: Deps, root: string, s: SessionState, nowMs: number): SessionState | undefined {
  if (job.input.source === "clear")
    return s.claude_pid === null ? undefined : findPreviousSession(root, s.claude_pid, s.session_id, nowMs);
  const from = deps.env.CTX_RESUMED_FROM;
  if (job.input.source === "compact" || !isValidSessionId(from) || from === s.session_id) return undefined;
  return loadState(layout(root).stateFile(from) ?? "", nowMs);
}

/** Adds the new API messages' tokens to the per-model totals; returns the deltas for the ledger. */
function countTokens(s: SessionState, job: Job, cfg: Config): Record<string, ReturnType<typeof totalsOf>> {
  if (job.usage) {
    const totals = totalsOf(job.usage.usage);
    addLineUsage(s.models, [], { key: "", model: job.usage.model, totals });
    return { [job.usage.model]: totals };
  }
  if (!s.transcript_path) return {};
  const got = readNewUsage(s.transcript_path, s.cursor, s.models, cfg["track.read_bytes"]);
  if (!got) return {};
  s.cursor = got.cursor;
  return got.deltas;
}

interface Done {
  state: SessionState;
  step: StepResult;
  deltas: Record<string, ReturnType<typeof totalsOf>>;
  linked: string | null;
}

async function afterUpdate(
  done: Done,
  job: Job,
  deps: Deps,
  root: string,
  iso: string,
  nowMs: number,
  lock: () => LockOptions,
): Promise<TrackResult> {
  const { state, step } = done;
  const safe = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      debug(deps, `track: ${what}: ${(err as Error).message}`);
    }
  };
  if (done.linked) safe("link", () => linkNext(root, done.linked!, state.session_id, nowMs, lock()));
  if (step.compactionDone)
    safe("compaction", () =>
      completeCompactionEvent(root, step.compactionDone!.path, step.compactionDone!.tokens_after, iso, lock()),
    );
  safe("ledger", () => addLedgerTokens(root, state.task_id, state.session_id, done.deltas, iso, lock()));
  safe("index", () => writeEntry(deps.env, root, state, lock()));
  if (job.event === "SessionStart") safe("sweep", () => sweepTemps(deps.env, root, nowMs));
  // what git shows changed at the start, so the summary can tell the files commands changed since
  if (job.event === "SessionStart") safe("git-start", () => recordGitStart(root, state.session_id, job.project));
  debug(
    deps,
    `track: ${job.event} ${state.session_id}: ${state.used_pct}% (${state.used_tokens}/${state.window_size}), tool_calls ${state.tool_calls} (+${state.subagent_tool_calls} in subagents)`,
  );
  const result: TrackResult = { state, report: step.report };
  if (step.report) {
    const message = levelMessage(step.report, state.used_pct, state.used_tokens, state.window_size);
    debug(deps, `track: level ${step.report} newly crossed`);
    result.output = { systemMessage: message };
  }
  if (step.finalize)
    result.finalizing = await startFinalize(deps, {
      project: job.project,
      sessionId: state.session_id,
      transcriptPath: state.transcript_path,
      ended: job.event === "SessionEnd",
    });
  return result;
}

/** Once a session: removes temp files that writers killed mid-write left in the state directories. */
function sweepTemps(env: Record<string, string | undefined>, root: string, nowMs: number): void {
  // Never through a symlinked state directory: the files there are not ours to remove.
  const { state, sessionsState, monitor, respawn, gitStart, records, events } = STATE_DIRS;
  for (const dir of [state, sessionsState, monitor, respawn, gitStart, records, events, ""])
    if (realDirsUnder(root, dir)) sweepStaleTemps(join(root, dir), nowMs);
  const user = userLayout(env);
  if (realDirsUnder(user.dir, INDEX_DIR)) sweepStaleTemps(user.index, nowMs);
  sweepStaleTemps(user.tmp, nowMs, 10 * 60_000, ".claude-ctx-");
}

/** True when the session is at the warning level or above (read without a lock: a hint only). */
function nearLevels(job: Job, deps: Deps, cfg: Config): boolean {
  const path = layout(stateRoot(deps.env, job.project)).stateFile(job.sessionId);
  const s = path ? loadState(path, deps.now()) : undefined;
  const warning = cfg["levels.warning"];
  return !!s && warning !== false && s.used_pct >= warning;
}

function thresholds(cfg: Config): Thresholds {
  return ladderOf(cfg);
}
