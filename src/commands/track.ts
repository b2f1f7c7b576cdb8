import { CtxError, debug, type Deps } from "../core/deps.ts";
import { parseHookInput } from "../core/hook-input.ts";
import { layout, STATE_DIRS } from "../core/layout.ts";
import { ladderOf } from "../core/levels.ts";
import { stateRoot } from "../core/paths.ts";
import { findProject, projectFrom } from "../io/project.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { hookJob, parsePlainUsage, type TrackJob } from "../core/track/job.ts";
import type { SessionState } from "../core/track/state.ts";
import { trackStep, type FinalizeOnEnd } from "../core/track/step.ts";
import { HOOK_TIMEOUT_S } from "../core/settings/entries.ts";
import { envConfig, loadConfig } from "../io/config.ts";
import { realDirsUnder } from "../io/fs/dirs.ts";
import { LockTimeout } from "../io/fs/lock.ts";
import { appendPause, loadState, lockBudget, updateState } from "../io/session/store.ts";
import { writeCompactionEvent } from "../io/session/events.ts";
import { afterUpdate, type Done, type TrackResult } from "../io/track/after.ts";
import { countTokens, prepare } from "../io/track/prepare.ts";
import { readingFor } from "../io/track/reading.ts";
import { reportUnclaimedHook } from "../io/unclaimed.ts";

/**
 * The longest all lock waits of one track run may take together: two thirds of the 30 s the hook is
 * registered with (the rest covers stdin, the transcript and the writes), and long enough that a burst of
 * parallel tool calls on a small machine, or a queue behind a lock held over 10 s, loses no update.
 */
const TRACK_LOCK_BUDGET_MS = (HOOK_TIMEOUT_S.track * 1000 * 2) / 3;

/**
 * `ctx track`: a hook for SessionStart, UserPromptSubmit, PostToolUse(Failure),
 * Stop, StopFailure (the usage limit), PreCompact and SessionEnd, or the plain mode
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
  const input = plain ? {} : parseHookInput(stdin.text);
  const job = plain ? plainJob(values, stdin.text, deps) : hookJob(input, deps.env, deps.cwd);
  // Where the client runs may be a subfolder: the project is found from there as for a typed command.
  if (job && typeof job !== "string") job.project = projectFrom(job.project);
  if (typeof job === "string") {
    deps.stderr(`ctx track: ${job}\nRun 'ctx track --help'.\n`);
    return 2;
  }
  if (!job) return reportUnclaimedHook(deps, "track", input);
  const result = await track(job, deps);
  if (result.output) deps.stdout(`${JSON.stringify(result.output)}\n`);
}

/** Applies one job to the session's state and carries out what the step decided. */
export async function track(job: TrackJob, deps: Deps): Promise<TrackResult> {
  const cfg = loadConfig(deps, job.project);
  const root = stateRoot(deps.env, job.project);
  const nowMs = deps.now();
  const iso = new Date(nowMs).toISOString();
  // Every lock wait of this run shares one budget, well under the 30 s the hook is registered with.
  const lock = lockBudget(TRACK_LOCK_BUDGET_MS);
  const reading = job.reading ?? readingFor(job, deps, cfg);
  const apply = (prev: SessionState | undefined): Done => {
    const s = prepare(prev, job, deps, root, iso, nowMs);
    const { deltas, limit } = countTokens(s, job, cfg, root);
    const step = trackStep(
      s,
      { event: job.event, iso, input: job.input, reading, limitInTranscript: limit },
      ladderOf(cfg),
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
      const { trigger, level, tokens_before: before } = step.compactionStart;
      attempt("compaction event", () => {
        const path = writeCompactionEvent(root, step.state, nowMs, iso, trigger, before, level);
        step.state.pending_compaction = { path, tokens_before: before };
      });
    }
    if (step.compression) {
      // Gemini CLI: the compression is known once it happened; its event gets both figures at once.
      const c = step.compression;
      attempt("compaction event", () => {
        const path = writeCompactionEvent(root, step.state, nowMs, iso, c.trigger, c.tokens_before, c.level ?? null);
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
  return afterUpdate(done, job, deps, root, iso, nowMs, lock, cfg);
}

// --- internal ---

/** The plain mode's job, or the reason its input is unusable. */
function plainJob(values: Record<string, unknown>, stdinText: string, deps: Deps): TrackJob | string {
  const sessionId = values.session;
  if (!isValidSessionId(sessionId)) return "--session needs a session id of [A-Za-z0-9_-] (1-128 characters)";
  const given = parsePlainUsage(typeof values.usage === "string" ? values.usage : stdinText);
  if (typeof given === "string") return given;
  const project = findProject(deps.env, deps.cwd);
  // Without a model, the tokens belong to the model the session already has.
  const model =
    (typeof values.model === "string" ? values.model : given.model) ??
    loadState(layout(stateRoot(deps.env, project)).stateFile(sessionId) ?? "", deps.now())?.model ??
    "unknown";
  return { sessionId, event: "usage", input: {}, project, usage: { model, usage: given.usage } };
}
