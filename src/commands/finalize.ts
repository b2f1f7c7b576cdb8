import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { CtxError, debug, type Deps } from "../core/deps.ts";
import { layout, STATE_DIRS, STATE_NAMES } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import { changedSinceStart } from "../io/git/changes.ts";
import { gitStatus, withoutFiles } from "../io/git/repo.ts";
import { findProject } from "../io/project.ts";
import { parseFor } from "./args.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { reportUnclaimedSync as unclaimed } from "../io/error-log.ts";
import { mergeChain, relative } from "../core/summary/chain.ts";
import { emptyFacts } from "../core/summary/facts.ts";
import { buildRecord, recordMarkdown, recordYaml } from "../core/summary/record.ts";
import { renderSummary } from "../core/summary/render.ts";
import { sessionTasks } from "../core/summary/tasks.ts";
import type { SessionState } from "../core/track/state.ts";
import { ensureDirUnder } from "../io/fs/dirs.ts";
import { withReadFile } from "../io/fs/read.ts";
import { jsonText, writeFileAtomic, writeJsonAtomic } from "../io/fs/write.ts";
import { loadConfig } from "../io/config.ts";
import { recordWritten } from "../io/written.ts";
import { withLock } from "../io/fs/lock.ts";
import { FINALIZE_LOCK } from "../io/finalize/pending.ts";
import { loadState, updateStateOnly } from "../io/session/store.ts";
import { subagentCallCount, subagentLine } from "../core/summary/subagents.ts";
import { twinPathOf } from "../core/summary/twin.ts";
import { freeStamp, previousTwin, readSubagentWork, readTaskFiles, sessionChain } from "../io/finalize/inputs.ts";
import { readTranscriptPass } from "../io/finalize/inputs.ts";
import { plannedStamp } from "../io/finalize/spawn.ts";
import { type FloorReading, usageFor } from "../io/finalize/usage.ts";
import { archivePause, readPauseLog } from "../io/finalize/pause-log.ts";
import { bareState, latestSession } from "../io/finalize/session.ts";
import { notingFailure } from "../io/finalize/handoff.ts";
import { RUN_SESSION_VAR } from "../core/run/stop.ts";

/** Options of one finalize. */
export interface FinalizeOptions {
  project: string;
  sessionId: string;
  /** The transcript to summarise (default: the one in the session's state). */
  transcriptPath?: string;
  /** The session has ended: archive and remove the ACTIVE-PAUSE log. */
  ended?: boolean;
  /** What started it, for the record. */
  reason?: string;
  /** The reading that started it (the monitor at CRITICAL): the summary never reports less. */
  floor?: FloorReading;
  /** Files that are no work of the session (`ctx run`'s own output files): left out of "changed by commands". */
  ignore?: string[];
}

/** What a finalize wrote. */
export interface FinalizeResult {
  summaryPath: string;
  recordPath: string;
  stamp: string;
}

/** `ctx finalize [--session ID] [--transcript PATH]`: writes the session record and the handoff summary. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const values = parseFor("finalize", argv).values as {
    session?: string;
    transcript?: string;
    project?: string;
    ended?: boolean;
    reason?: string;
    "used-tokens"?: string;
    "used-pct"?: string;
    "window-size"?: string;
  };
  const n = (v: string | undefined) => (v !== undefined && /^\d{1,9}(\.\d+)?$/.test(v) ? Number(v) : 0);
  const floor: FloorReading = {
    usedTokens: n(values["used-tokens"]),
    usedPct: n(values["used-pct"]),
    windowSize: n(values["window-size"]),
  };
  const project = values.project ? resolve(deps.cwd, values.project) : findProject(deps.env, deps.cwd);
  const sessionId = values.session ?? latestSession(stateRoot(deps.env, project), values.transcript);
  if (!isValidSessionId(sessionId)) {
    throw new CtxError(
      2,
      values.session ? `bad session id '${values.session}'` : "no session to finalize in this project",
      "pass --session ID (and --transcript PATH)",
    );
  }
  const reason = values.reason ?? (values.ended ? "session_end" : "manual");
  const opts = { project, sessionId, transcriptPath: values.transcript, ended: values.ended, reason, floor };
  // A background one has no terminal: its failure is noted where the next message looks (io/finalize/handoff.ts).
  const noted = reason === "manual" ? undefined : { deps, root: stateRoot(deps.env, project), sessionId };
  const result = await notingFailure(noted, () => finalize(opts, deps));
  deps.stdout(`${result.summaryPath}\n`);
  return 0;
}

/** Streams the transcript into a rule-based summary and writes every record file; a second run rewrites the same. */
export function finalize(opts: FinalizeOptions, deps: Deps): FinalizeResult {
  const root = stateRoot(deps.env, opts.project);
  const tracked = existsSync(layout(root).stateFile(opts.sessionId)!);
  if (opts.transcriptPath && !isReadableFile(opts.transcriptPath)) {
    throw new CtxError(
      1,
      `cannot read the transcript ${opts.transcriptPath}`,
      "pass the session's .jsonl (Claude Code keeps them in ~/.claude/projects/)",
    );
  }
  if (!tracked && !opts.transcriptPath) {
    // Nothing to summarise: an empty summary would become the newest one that a fresh session resumes from.
    throw new CtxError(
      1,
      `no state for session ${opts.sessionId} in ${root}`,
      "pass --transcript PATH of the session's .jsonl, or check the session id with 'ctx status --all'",
    );
  }
  const lock = layout(root).finalizeLock(opts.sessionId);
  if (!lock) throw new CtxError(2, `invalid session id: ${opts.sessionId}`);
  ensureDirUnder(root, STATE_DIRS.sessionsState);
  return withLock(lock, () => finalizeLocked(opts, deps, root), FINALIZE_LOCK);
}

// --- internal ---

function finalizeLocked(opts: FinalizeOptions, deps: Deps, root: string): FinalizeResult {
  const nowMs = deps.now();
  const iso = new Date(nowMs).toISOString();
  const cfg = loadConfig(deps, opts.project);
  const files = layout(root);
  const tracked = loadState(files.stateFile(opts.sessionId)!, nowMs);
  const state = tracked ?? bareState(opts.sessionId, opts.project, opts.transcriptPath, deps, iso);
  const transcript = opts.transcriptPath ?? state.transcript_path ?? undefined;
  const facts = emptyFacts((["kickstart", "update", "compact"] as const).map((k) => cfg[`respawn.${k}_prompt`]));
  const { ok: read, seen, started } = readTranscriptPass(transcript, facts);
  if (transcript && !read) debug(deps, `finalize: cannot read ${transcript}`);
  if (facts.unclaimedLines) unclaimed(deps, "finalize", `${facts.unclaimedLines} lines no client claims: skipped`);
  const dir = files.records;
  ensureDirUnder(root, STATE_DIRS.records);
  const stamp =
    state.finalized_stamp ?? plannedStamp(root, state.session_id) ?? freeStamp(dir, state.session_id, nowMs);
  const name = STATE_NAMES.record(stamp);
  const links = sessionChain(root, state.session_id, nowMs);
  const team = deps.env.CTX_TEAM?.trim() || state.team || null;
  const summaryPath = files.summary(state.task_id, stamp);
  const prev = previousTwin(deps.env, root, links, nowMs);
  const listId = state.task_list_id ?? state.session_id;
  const status = withoutFiles(gitStatus(state.project), opts.ignore, state.project);
  const twin = mergeChain(prev?.twin, {
    taskId: state.task_id,
    sessionId: state.session_id,
    listId,
    links,
    facts,
    tasks: sessionTasks(facts, readTaskFiles(deps.env, listId)),
    previousAtHand: facts.midStory?.previous !== undefined && isReadableFile(facts.midStory.previous),
    project: state.project,
    writtenAt: iso,
    gitStatus: status,
  });
  const summary = renderSummary({
    facts,
    twin,
    team,
    previousSummary: prev?.summaryPath ?? null,
    usage: usageFor(state, tracked !== undefined, facts, deps, cfg, opts.floor, seen),
    generatedAt: iso,
    transcriptPath: transcript ?? null,
    gitStatus: status,
    subagentLine: subagentLine(
      readSubagentWork(transcript, state.session_id),
      state.subagent_tool_calls,
      subagentCallCount(started),
    ),
    headless: opts.reason === "run_leg" || deps.env[RUN_SESSION_VAR] === state.session_id,
    commandChanges: (changedSinceStart(root, state.session_id, state.project) ?? [])
      .filter((p) => !facts.files.has(p) && !opts.ignore?.includes(p))
      .map((p) => relative(p, state.project)),
  });
  // The twin first: a summary on disk always has its twin next to it; each recorded before it appears.
  attempt(deps, "twin record", () => recordWritten(deps.env, jsonText(twin), "twin", twinPathOf(summaryPath)));
  writeJsonAtomic(twinPathOf(summaryPath), twin, 0o600);
  attempt(deps, "summary record", () => recordWritten(deps.env, summary, "summary", summaryPath));
  writeFileAtomic(summaryPath, summary, 0o600);
  const incrementalPath =
    attempt(deps, "pause archive", () =>
      archivePause(root, state.session_id, join(dir, `${name}-incremental.jsonl`), opts.ended === true),
    ) ?? null;
  const pause = readPauseLog(incrementalPath ?? "", 20);
  const finalState: SessionState = { ...state, team, finalized_stamp: stamp, finalized_at: iso };
  const record = buildRecord(finalState, {
    name,
    team,
    chain: twin.sessions,
    finalizedAt: iso,
    reason: opts.reason ?? "manual",
    summaryPath,
    incrementalPath,
    pauseActions: pause.count,
  });
  writeJsonAtomic(join(dir, `${name}.json`), record, 0o600);
  writeFileAtomic(join(dir, `${name}.yaml`), recordYaml(record), 0o600);
  writeFileAtomic(join(dir, `${name}.md`), recordMarkdown(record, pause.recent), 0o600);
  // Something planted at the pointer (a directory) fails this one write, not the finalize.
  attempt(deps, "latest session pointer", () => writeFileAtomic(files.latestSession, `${name}.json\n`, 0o600));
  updateStateOnly(root, state.session_id, nowMs, (s) => ({ ...s, team, finalized_stamp: stamp, finalized_at: iso }));
  debug(deps, `finalize: wrote ${summaryPath}`);
  return { summaryPath, recordPath: join(dir, `${name}.json`), stamp };
}

/** Runs one write that may fail on its own (something planted at its path); undefined when it did. */
function attempt<T>(deps: Deps, what: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    debug(deps, `finalize: ${what} not written: ${(err as Error).message}`);
    return undefined;
  }
}

function isReadableFile(path: string): boolean {
  return withReadFile(path, (_fd, st) => st.isFile) === true;
}
