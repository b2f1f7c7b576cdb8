import { normalizeHook } from "../core/agents/index.ts";
import type { Config } from "../core/config-schema.ts";
import {
  debounceStep,
  initialMonitorState,
  parseMonitorState,
  warningText,
  type MonitorState,
  type WarnLevel,
} from "../core/debounce.ts";
import { debug, type Deps } from "../core/deps.ts";
import { parseHookInput, str } from "../core/hook-input.ts";
import { layout, STATE_DIRS } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import { hookProject } from "../io/project.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { subagentOf, subagentTranscript } from "../core/subagent.ts";
import { ladderOf, levelOfReading, levelRank, textFigures, type Level } from "../core/levels.ts";
import { legStop, type LegStopOutput } from "../core/run/stop.ts";
import { HOOK_TIMEOUT_S } from "../core/settings/entries.ts";
import { handoffOf } from "../io/finalize/handoff.ts";
import { withCheckpoint } from "../io/session/checkpoint.ts";
import { envConfig, loadConfig } from "../io/config.ts";
import { ensureDirUnder } from "../io/fs/dirs.ts";
import { mtimeMs } from "../io/fs/read.ts";
import { unlinkQuiet } from "../io/fs/sys.ts";
import { writeFileAtomic, writeJsonAtomic } from "../io/fs/write.ts";
import { LockTimeout, withLock } from "../io/fs/lock.ts";
import { readState } from "../io/fs/state-file.ts";
import { currentReading, hookWait, subagentReading, type SourcedReading } from "../io/session/usage-source.ts";

/** ctx's normalised events after which the monitor speaks (each client's name for them: core/agents/). */
const MONITOR_EVENTS = new Set<string | undefined>(["PostToolUse", "PostToolUseFailure"]);

/** What one monitor call decided. */
export interface MonitorResult {
  reading?: SourcedReading;
  level?: Level;
  /** The project the session belongs to (found once, from the hook's cwd). */
  project?: string;
  /** The subagent whose own context was judged (its tool call carried `agent_id`). */
  agentId?: string;
  /** The hook output, when a warning fires. */
  output?: { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  /** The figures the warning gave: the share of min(window, budget) and the scale when a budget applies. */
  figures?: ReturnType<typeof textFigures>;
  /** A `ctx run` leg at its restart level: end it after this tool call (core/run/stop.ts). */
  stop?: LegStopOutput;
}

/** `ctx monitor`: a PostToolUse / AfterTool hook: CONTEXT WARNING or CRITICAL as additionalContext, debounced. */
export async function run(_argv: string[], deps: Deps): Promise<void> {
  const stdin = await deps.readStdin({ timeoutMs: envConfig(deps.env)["monitor.stdin_timeout_ms"], maxBytes: 2 ** 26 });
  const input = parseHookInput(stdin.text);
  const result = monitor(input, deps);
  // A subagent's level is about its own window: the parent's finalize crossing is not its business.
  if (result.level && subagentOf(input) === undefined && isValidSessionId(input.session_id))
    await handoff(input, input.session_id, result, deps);
  // at limits.checkpoint_at of the 5-hour window, once per window, the checkpoint joins (or is) the text
  if (result.project && result.level && !result.agentId)
    result.output = withCheckpoint(deps, result.project, input, result.output);
  if (result.output || result.stop) deps.stdout(`${JSON.stringify({ ...result.stop, ...result.output })}\n`);
}

/** The monitor's decision for one hook input (does the I/O of state, prints nothing). */
export function monitor(input: Record<string, unknown>, deps: Deps): MonitorResult {
  const hook = normalizeHook(input);
  const sessionId = input.session_id;
  if (!hook || !MONITOR_EVENTS.has(hook.event) || !isValidSessionId(sessionId)) return {};
  // The output echoes the client's own event name (AfterTool for Gemini CLI).
  const event = hook.rawEvent;
  const project = hookProject(deps.env, input.cwd, deps.cwd);
  const cfg = loadConfig(deps, project);
  const now = deps.now();
  const root = stateRoot(deps.env, project);
  const agentId = subagentOf(input);
  if (agentId !== undefined)
    return agentId ? judgeSubagent(input, event, sessionId, agentId, root, cfg, now, deps) : {};
  const wait = hookWait(input, cfg["monitor.transcript_wait_ms"], deps.now);
  // A session's first hook may run before its transcript exists: wait for it once; if it never
  // shows up (transcripts turned off), remember that and stop waiting for it on every tool call.
  const noTranscript = layout(root).monitorFile(sessionId, ".no-transcript")!;
  if (wait) wait.waitMissing = () => mtimeMs(noTranscript) === undefined; // only asked without a fresh bridge
  const reading = currentReading(deps.env, now, cfg, sessionId, str(input, "transcript_path"), wait, { root, project });
  if (wait?.outcome === "missing" && mtimeMs(noTranscript) === undefined) markNoTranscript(root, noTranscript);
  if (!reading) return {};
  const ladder = ladderOf(cfg);
  const level = levelOfReading(reading, ladder);
  debug(
    deps,
    `monitor: ${reading.usedPct}% used (${reading.source}), window ${reading.windowSize} (${reading.windowSource}), level ${level}`,
  );
  const stop = legStop(deps.env, event, sessionId, reading.usedPct, cfg["respawn.restart_at"]);
  const fire = debounced(deps, root, layout(root).monitorFile(sessionId)!, level, cfg, now);
  if (!fire || level === "ok") return { reading, level, project, stop };
  // At CRITICAL, say where this crossing's handoff stands (no marker yet: run() starts its finalize next).
  const handoff = level === "warning" ? undefined : handoffOf(root, sessionId, now);
  const f = textFigures(reading, ladder);
  const text = warningText(level, f.usedPct, f.remainingPct, handoff, f.scale);
  const output = { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
  return { reading, level, project, output, stop, figures: f };
}

// --- internal ---

/**
 * A tool call inside a subagent: judged by the subagent's own transcript and
 * window, debounced per agent (`<session>.agent-<id>.json`), never by the
 * parent's figures and without waiting on any file.
 */
function judgeSubagent(
  input: Record<string, unknown>,
  event: string,
  sessionId: string,
  agentId: string,
  root: string,
  cfg: Config,
  now: number,
  deps: Deps,
): MonitorResult {
  const reading = subagentReading(
    deps.env,
    cfg,
    sessionId,
    subagentTranscript(str(input, "transcript_path"), sessionId, agentId),
  );
  if (!reading) return { agentId };
  const ladder = ladderOf(cfg);
  const level = levelOfReading(reading, ladder);
  const path = layout(root).monitorFile(sessionId, `.agent-${agentId}.json`)!;
  if (!debounced(deps, root, path, level, cfg, now) || level === "ok") return { reading, level, agentId };
  const f = textFigures(reading, ladder);
  const text = warningText(level, f.usedPct, f.remainingPct, undefined, f.scale);
  return {
    reading,
    level,
    agentId,
    output: { hookSpecificOutput: { hookEventName: event, additionalContext: text } },
  };
}

/**
 * At CRITICAL, starts the handoff summary in the background (once per crossing), before the warning is
 * printed: when it cannot even be started, the warning says so instead of promising one. Below CRITICAL,
 * forgets the crossing. The spawning code loads only when needed.
 */
async function handoff(input: Record<string, unknown>, sessionId: string, result: MonitorResult, deps: Deps) {
  const project = result.project ?? hookProject(deps.env, input.cwd, deps.cwd);
  const marker = layout(stateRoot(deps.env, project)).finalizeMarker(sessionId)!;
  if (levelRank(result.level!) < levelRank("critical")) return unlinkQuiet(marker);
  const { finalizeOnCritical } = await import("../io/finalize/spawn.ts");
  const started = await finalizeOnCritical(deps, {
    project,
    sessionId,
    transcriptPath: str(input, "transcript_path"),
    level: result.level!,
    reading: result.reading,
  });
  const hso = result.output?.hookSpecificOutput;
  if (started || !hso || !result.reading || mtimeMs(marker) !== undefined) return;
  const failed = { state: "failed", reason: "ctx finalize could not be started" } as const;
  const f = result.figures ?? { usedPct: result.reading.usedPct, remainingPct: result.reading.remainingPct };
  hso.additionalContext = warningText(result.level as WarnLevel, f.usedPct, f.remainingPct, failed, f.scale);
}

/**
 * The debounce step, or what to do without it: a debounce that cannot be written (read-only, full disk, a
 * symlinked root) warns every time rather than never; a lock still held when the wait ends is another monitor
 * call of the same moment (a planted or stale lock is broken at once), which decides, so this one stays quiet
 * and the count stays exact.
 */
function debounced(deps: Deps, root: string, path: string, level: Level, cfg: Config, now: number): boolean {
  try {
    return step(root, path, level, cfg, now);
  } catch (err) {
    const busy = err instanceof LockTimeout;
    debug(deps, `monitor: debounce not ${busy ? "reached" : "written"} (${(err as Error).message})`);
    return !busy;
  }
}

function markNoTranscript(root: string, path: string): void {
  try {
    ensureDirUnder(root, STATE_DIRS.monitor);
    writeFileAtomic(path, "", 0o600);
  } catch {
    // a read-only state directory: we will wait again next time, nothing worse
  }
}

/** Runs the debounce of one state file (a session's or a subagent's) under its lock, so parallel tool calls count exactly. */
function step(root: string, path: string, level: Level, cfg: Config, now: number): boolean {
  if (level === "ok") {
    // Usage is back below the warning level: forget the debounce (no lock needed to delete).
    unlinkQuiet(path);
    return false;
  }
  ensureDirUnder(root, STATE_DIRS.monitor);
  return withLock(
    `${path}.lock`,
    () => {
      // A corrupt state is kept aside as <file>.corrupt-<ms> and the debounce starts over.
      const prev: MonitorState = readState(path, parseMonitorState, now) ?? initialMonitorState(now);
      const next = debounceStep(prev, level, cfg["monitor.debounce_calls"], now);
      writeJsonAtomic(path, next.state);
      return next.fire;
    },
    DEBOUNCE_LOCK,
  );
}

/**
 * The debounce lock's wait: a burst of parallel tool calls on a small machine queues up here, so it
 * may wait long enough to count every call, and still well under the 10 s the hook is registered with.
 */
const DEBOUNCE_LOCK = { timeoutMs: HOOK_TIMEOUT_S.monitor * 1000 * 0.6 };
