import { decodeHook, type HookEvent } from "../core/agents/index.ts";
import type { Config } from "../core/config-schema.ts";
import { warningText, type WarnLevel } from "../core/debounce.ts";
import { debug, type Deps } from "../core/deps.ts";
import { parseHookInput } from "../core/hook-input.ts";
import { layout } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import { hookProject } from "../io/project.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { subagentOf, subagentTranscript } from "../core/subagent.ts";
import { ladderOf, levelOfReading, levelRank, textFigures, type Level } from "../core/levels.ts";
import { legStop, type LegStopOutput } from "../core/run/stop.ts";
import { handoffOf } from "../io/finalize/handoff.ts";
import { withCheckpoint } from "../io/session/checkpoint.ts";
import { envConfig, loadConfig } from "../io/config.ts";
import { mtimeMs } from "../io/fs/read.ts";
import { unlinkQuiet } from "../io/fs/sys.ts";
import { subagentReading, type SourcedReading } from "../io/session/usage-source.ts";
import { planOf, readUsage } from "./monitor-read.ts";
import { debounced } from "./monitor-debounce.ts";
import { MOD_CYCLE_EVENTS, MOD_STEP_EVENT, MOD_SUMMARY_EVENT, modAnswer, modTake } from "./monitor-mod.ts";
import { reportUnclaimedHook } from "../io/unclaimed.ts";

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
  /** At CRITICAL: how this session saves its plan (core/plan-tools.ts). */
  plan?: string;
  /** For a call of ctx's mod: the figure and level it shows the user (commands/monitor-mod.ts). */
  mod?: ReturnType<typeof modAnswer>;
}

/** `ctx monitor`: a PostToolUse / AfterTool hook: CONTEXT WARNING or CRITICAL as additionalContext, debounced. */
export async function run(_argv: string[], deps: Deps): Promise<void> {
  const stdin = await deps.readStdin({ timeoutMs: envConfig(deps.env)["monitor.stdin_timeout_ms"], maxBytes: 2 ** 26 });
  const input = parseHookInput(stdin.text);
  if (MOD_CYCLE_EVENTS.has(input.hook_event_name)) {
    const { modCycle } = await import("./monitor-cycle.ts");
    const answer = await modCycle(input, deps);
    if (answer) deps.stdout(`${JSON.stringify(answer)}\n`);
    return;
  }
  if (input.hook_event_name === MOD_SUMMARY_EVENT) {
    const answer = (await import("./monitor-summary.ts")).modSummary(input, deps);
    if (answer) deps.stdout(`${JSON.stringify(answer)}\n`);
    return;
  }
  const hook = decodeHook(input);
  if (!hook) return reportUnclaimedHook(deps, "monitor", input);
  const result = monitor(hook, deps);
  // A subagent's level is about its own window: the parent's finalize crossing is not its business.
  if (result.level && subagentOf(hook.input) === undefined && isValidSessionId(hook.sessionId))
    await handoff(hook, hook.sessionId, result, deps);
  // at limits.checkpoint_at of the 5-hour window, once per window, the checkpoint joins (or is) the text
  if (result.project && result.level && !result.agentId && !result.mod)
    result.output = withCheckpoint(deps, result.project, input, result.output);
  const out = { ...result.stop, ...result.output, ...(result.mod ? { ctx_mod: result.mod } : {}) };
  if (Object.keys(out).length > 0) deps.stdout(`${JSON.stringify(out)}\n`);
}

/** The monitor's decision for one decoded hook payload (does the I/O of state, prints nothing). */
export function monitor(hook: HookEvent, deps: Deps): MonitorResult {
  const sessionId = hook.sessionId;
  // A mod's `turn.step` call records the request's figure: no tool use, so no debounce step.
  const step = hook.rawEvent === MOD_STEP_EVENT;
  if (!(step || MONITOR_EVENTS.has(hook.event)) || !isValidSessionId(sessionId)) return {};
  // The output echoes the client's own event name (AfterTool for Gemini CLI).
  const event = hook.rawEvent;
  const project = hookProject(deps.env, hook.cwd, deps.cwd);
  const cfg = loadConfig(deps, project);
  const now = deps.now();
  const root = stateRoot(deps.env, project);
  const agentId = subagentOf(hook.input);
  if (agentId !== undefined) return agentId ? judgeSubagent(hook, sessionId, agentId, root, cfg, now, deps) : {};
  const take = modTake(hook.input, root, sessionId, now);
  if (step && take.kind !== "mod") return {};
  const reading = take.kind === "none" ? readUsage(hook, sessionId, root, project, cfg, now, deps) : take.reading;
  if (!reading) return {};
  const ladder = ladderOf(cfg);
  const level = levelOfReading(reading, ladder);
  debug(
    deps,
    `monitor: ${reading.usedPct}% used (${reading.source}), window ${reading.windowSize} (${reading.windowSource}), level ${level}`,
  );
  const mod = take.kind === "mod" ? modAnswer(reading, cfg) : undefined;
  if (step) return { reading, level, project, mod };
  const stop = legStop(deps.env, event, sessionId, reading.usedPct, cfg["respawn.restart_at"]);
  // Under a mod the settings hook only ends a `ctx run` leg: the mod's own call warns.
  if (take.kind === "stand-down") return { reading, level, project, stop };
  const fire = debounced(deps, root, layout(root).monitorFile(sessionId)!, level, cfg, now);
  if (!fire || level === "ok") return { reading, level, project, stop, mod };
  // At CRITICAL, say where this crossing's handoff stands (no marker yet: run() starts its finalize next).
  const handoff = level === "warning" ? undefined : handoffOf(root, sessionId, now);
  // How this session saves its plan, with the tools its transcript shows it has (docs/plan-tools.md).
  const plan = level === "warning" ? undefined : planOf(hook.transcriptPath);
  const f = textFigures(reading, ladder);
  const text = warningText(level, f.usedPct, f.remainingPct, handoff, plan, f.scale);
  const output = { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
  return { reading, level, project, output, stop, plan, mod, figures: f };
}

// --- internal ---

/**
 * A tool call inside a subagent: judged by the subagent's own transcript and
 * window, debounced per agent (`<session>.agent-<id>.json`), never by the
 * parent's figures and without waiting on any file.
 */
function judgeSubagent(
  hook: HookEvent,
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
    subagentTranscript(hook.transcriptPath, sessionId, agentId),
  );
  if (!reading) return { agentId };
  const ladder = ladderOf(cfg);
  const level = levelOfReading(reading, ladder);
  const path = layout(root).monitorFile(sessionId, `.agent-${agentId}.json`)!;
  if (!debounced(deps, root, path, level, cfg, now) || level === "ok") return { reading, level, agentId };
  const f = textFigures(reading, ladder);
  const text = warningText(level, f.usedPct, f.remainingPct, undefined, undefined, f.scale);
  return {
    reading,
    level,
    agentId,
    output: { hookSpecificOutput: { hookEventName: hook.rawEvent, additionalContext: text } },
  };
}

/**
 * At CRITICAL, starts the handoff summary in the background (once per crossing), before the warning is
 * printed: when it cannot even be started, the warning says so instead of promising one. Below CRITICAL,
 * forgets the crossing. The spawning code loads only when needed.
 */
async function handoff(hook: HookEvent, sessionId: string, result: MonitorResult, deps: Deps) {
  const project = result.project ?? hookProject(deps.env, hook.cwd, deps.cwd);
  const marker = layout(stateRoot(deps.env, project)).finalizeMarker(sessionId)!;
  if (levelRank(result.level!) < levelRank("critical")) return unlinkQuiet(marker);
  const { finalizeOnCritical } = await import("../io/finalize/spawn.ts");
  const started = await finalizeOnCritical(deps, {
    project,
    sessionId,
    transcriptPath: hook.transcriptPath,
    level: result.level!,
    reading: result.reading,
  });
  const hso = result.output?.hookSpecificOutput;
  if (started || !hso || !result.reading || mtimeMs(marker) !== undefined) return;
  const failed = { state: "failed", reason: "ctx finalize could not be started" } as const;
  const f = result.figures ?? { usedPct: result.reading.usedPct, remainingPct: result.reading.remainingPct };
  hso.additionalContext = warningText(
    result.level as WarnLevel,
    f.usedPct,
    f.remainingPct,
    failed,
    result.plan,
    f.scale,
  );
}
