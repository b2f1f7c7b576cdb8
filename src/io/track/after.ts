/** What one `ctx track` call does once the state is written: links, ledger, index, retention, its output, a finalize. */
import { debug, type Deps } from "../../core/deps.ts";
import type { TrackJob } from "../../core/track/job.ts";
import { levelMessage } from "../../core/track/levels.ts";
import { ladderOf, textFigures } from "../../core/levels.ts";
import type { Level, SessionState } from "../../core/track/state.ts";
import type { StepResult } from "../../core/track/step.ts";
import { levelRank } from "../../core/levels.ts";
import { layout } from "../../core/layout.ts";
import { unlinkQuiet } from "../fs/sys.ts";
import { settledHandoffOf } from "../finalize/handoff.ts";
import { finalizeOnCritical, startFinalize } from "../finalize/spawn.ts";
import type { LockOptions } from "../fs/lock.ts";
import { recordGitStart } from "../git/changes.ts";
import { addLedgerTokens, completeCompactionEvent } from "../session/events.ts";
import { linkNext } from "../session/store.ts";
import { isSupervised, writeEntry } from "../session/index.ts";
import { startRetentionIfDue } from "../retention/start.ts";
import { refreshTextfileIfDue } from "../metrics/textfile.ts";
import type { Config } from "../../core/config-schema.ts";
import type { TokenDeltas } from "./prepare.ts";

/** The step of one track call, with what it counted. */
export interface Done {
  state: SessionState;
  step: StepResult;
  deltas: TokenDeltas;
  /** The session a new one was linked to (its `next_session_id` is set here), or null. */
  linked: string | null;
}

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

/** Carries out what the step decided besides the state itself; each part may fail on its own. */
export async function afterUpdate(
  done: Done,
  job: TrackJob,
  deps: Deps,
  root: string,
  iso: string,
  nowMs: number,
  lock: () => LockOptions,
  cfg: Config,
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
  // after a compaction the ladder starts over: the monitor warns again at the next crossing
  if (step.resetDebounce)
    safe("debounce", () => {
      unlinkQuiet(layout(root).monitorFile(state.session_id) ?? "");
      unlinkQuiet(layout(root).finalizeMarker(state.session_id) ?? "");
    });
  if (step.compactionDone)
    safe("compaction", () =>
      completeCompactionEvent(root, step.compactionDone!.path, step.compactionDone!.tokens_after, iso, lock()),
    );
  safe("ledger", () => addLedgerTokens(root, state.task_id, state.session_id, done.deltas, iso, lock()));
  safe("index", () => writeEntry(deps.env, root, state, lock()));
  // what git shows changed at the start, so the summary can tell the files commands changed since
  if (job.event === "SessionStart") safe("git-start", () => recordGitStart(root, state.session_id, job.project));
  // Retention (and the sweep of temp files) runs in a detached `ctx prune`, at most once per interval.
  if (job.event === "SessionStart") {
    const pid = await startRetentionIfDue(deps.env, job.project, root, cfg, nowMs).catch(() => undefined);
    if (pid) debug(deps, `track: retention started in the background (pid ${pid})`);
  }
  // The same background job keeps the metrics textfile fresh (metrics.textfile_dir), at most once a minute.
  const metricsPid = await refreshTextfileIfDue(deps.env, cfg, nowMs, job.project).catch(() => undefined);
  if (metricsPid) debug(deps, `track: metrics textfile refresh started (pid ${metricsPid})`);
  debug(
    deps,
    `track: ${job.event} ${state.session_id}: ${state.used_pct}% (${state.used_tokens}/${state.window_size}), tool_calls ${state.tool_calls} (+${state.subagent_tool_calls} in subagents)`,
  );
  const result: TrackResult = { state, report: step.report };
  if (step.report) {
    // CRITICAL newly crossed (also on a Stop or a failing tool call): the handoff starts here too, once per
    // crossing (the monitor's marker), and the message says where it stands rather than that it exists.
    const critical = levelRank(step.report) >= levelRank("critical");
    if (critical) result.finalizing = await handoffNow(deps, job, state, step.report);
    const handoff = critical ? await settledHandoffOf(root, state.session_id, deps.now) : undefined;
    const supervised = critical && isSupervised(deps.env, state.session_id);
    const reading = { usedTokens: state.used_tokens, windowSize: state.window_size, usedPct: state.used_pct };
    const f = textFigures(reading, ladderOf(cfg));
    const message = levelMessage(
      step.report,
      f.usedPct,
      state.used_tokens,
      state.window_size,
      handoff,
      supervised,
      f.scale,
    );
    debug(deps, `track: level ${step.report} newly crossed`);
    result.output = { systemMessage: message };
  }
  if (step.finalize) {
    const started = await startFinalize(deps, {
      project: job.project,
      sessionId: state.session_id,
      transcriptPath: state.transcript_path,
      ended: job.event === "SessionEnd",
    });
    result.finalizing = started || result.finalizing;
  }
  return result;
}

// --- internal ---

/** Starts the crossing's background finalize unless the monitor (or an earlier track call) already did. */
async function handoffNow(deps: Deps, job: TrackJob, state: SessionState, level: Level): Promise<boolean> {
  try {
    return await finalizeOnCritical(deps, {
      project: job.project,
      sessionId: state.session_id,
      transcriptPath: state.transcript_path,
      level,
      reading: { usedTokens: state.used_tokens, usedPct: state.used_pct, windowSize: state.window_size },
    });
  } catch (err) {
    debug(deps, `track: finalize not started: ${(err as Error).message}`);
    return false;
  }
}
