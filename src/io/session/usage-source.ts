import { isFresh, type Bridge } from "../../core/bridge.ts";
import { scaleOf, thresholdTokens } from "../../core/budget.ts";
import type { Config } from "../../core/config-schema.ts";
import { reading, type ContextReading } from "../../core/usage.ts";
import { resolveWindow, type WindowEvidence, type WindowResolution, type WindowSource } from "../../core/window.ts";
import { readBridge } from "./bridge.ts";
import { latestUsage, waitForLine, type TailUsage, type WaitOutcome } from "../transcript/tail.ts";
import { agent, type AgentName, type HookEvent, type PayloadUsage } from "../../core/agents/index.ts";
import { readRemembered, sessionEvidence } from "./window-source.ts";
import type { Env } from "../../core/deps.ts";

/** What to wait for in the transcript before reading it: a text its newest request must contain. */
export interface TranscriptWait {
  needle: string;
  ms: number;
  now: () => number;
  /** Also wait for a transcript that does not exist yet (default yes); asked only when the transcript is read. */
  waitMissing?: () => boolean;
  /** Wait without a fresh bridge too (default yes); with one, the bridge's figure decides (half the warning level). */
  withoutBridge?: boolean;
  /** Set to how the wait ended. */
  outcome?: WaitOutcome;
}

/**
 * The wait for a hook: a tool hook waits for the line of the request that called its tool (as its
 * client's transcript names the call), a Stop hook for the agent's last message (the event's `waitNeedle`).
 */
export function hookWait(hook: HookEvent, ms: number, now: () => number): TranscriptWait | undefined {
  return hook.waitNeedle ? { needle: hook.waitNeedle, ms, now } : undefined;
}

/** A context reading with where it came from. */
export interface SourcedReading extends ContextReading {
  source: "bridge" | "transcript" | "subagent" | "hook" | "client";
  /** Where the window came from (core/window.ts). */
  windowSource: WindowSource;
  model?: string;
}

/** Where a session's state lives: its ctx state root and its project (for the client's settings files). */
export interface SessionPlace {
  root: string;
  project: string;
}

/**
 * What the window resolver is told about the session's usage (core/window.ts `WindowEvidence`): the caller
 * (finalize) reads the compaction, trailer, `/model` answer and other sessions; else track's remembered ones.
 */
export interface WindowQuery
  extends Pick<
    WindowEvidence,
    "model" | "clientVersion" | "usedTokens" | "statusline" | "autoCompaction" | "signed" | "kin"
  > {
  sessionId: string;
}

/**
 * The session's context window with its source (core/window.ts `resolveWindow`), from
 * the remembered windows, the client's cached choice and the automatic compaction `ctx track`
 * remembered (when `place` is given) and the config.
 */
export function sessionWindow(env: Env, cfg: Config, q: WindowQuery, place?: SessionPlace): WindowResolution {
  const seen = place ? sessionEvidence(env, place.root, place.project, q.sessionId) : undefined;
  return resolveWindow({
    statusline: q.statusline,
    model: q.model,
    clientVersion: q.clientVersion,
    autoCompaction: q.autoCompaction ?? seen?.autoCompaction,
    signed: q.signed,
    kin: q.kin,
    remembered: readRemembered(env),
    client: seen?.client,
    configured: cfg["context.window_size"],
    usedTokens: q.usedTokens,
  });
}

/**
 * The current context usage of a session: the bridge file when it is fresh
 * (it carries Claude Code's own figures) and no transcript reading is newer,
 * else the transcript's latest main-chain usage (headless `claude -p` runs
 * have no status line). With `wait`, the transcript is first given a moment
 * to receive the line of the request that called the tool, so the reading is
 * not one request behind: with a fresh bridge too, from half the warning
 * level on, since the status line may not have run since that request.
 */
export function currentReading(
  env: Env,
  nowMs: number,
  cfg: Config,
  sessionId: string,
  transcriptPath: string | undefined,
  wait?: TranscriptWait,
  place?: SessionPlace,
): SourcedReading | undefined {
  const bridge = readBridge(env, sessionId);
  if (bridge && isFresh(bridge, nowMs, cfg["monitor.bridge_max_age_s"])) {
    const path = transcriptPath?.startsWith("/") ? transcriptPath : undefined;
    // Half the warning level in tokens, on the session's scale: under a 200k budget a 1M window's
    // bridge reads 13 % at 130k, where the budget's warning is due.
    const size = bridge.context_window_size;
    const near = size > 0 ? thresholdTokens(cfg["levels.warning"], scaleOf(size, cfg["context.budget"])) : false;
    const tokens = bridge.used_tokens || (bridge.used_pct / 100) * size;
    // The tool's request line found: the transcript holds the newest request, the bridge at best the same.
    if (path && wait && wait.ms > 0 && wait.needle.length >= 8 && near !== false && tokens >= near / 2) {
      const outcome = waitForLine(path, wait.needle, wait.ms, wait.now, false);
      if (outcome !== "missing") wait.outcome = outcome; // a missing file here says nothing about later waits
    }
    const tail = path ? latestUsage(path, cfg["monitor.tail_bytes"]) : undefined;
    if (tail && size > 0 && (wait?.outcome === "found" || newerThanBridge(tail, bridge)))
      return {
        source: "transcript",
        windowSource: "statusline",
        ...reading(tail.usedTokens, size),
        model: tail.model ?? bridge.model ?? undefined,
      };
    const used = Math.max(0, bridge.used_pct);
    return {
      source: "bridge",
      windowSource: "statusline",
      usedTokens: bridge.used_tokens ?? 0,
      windowSize: bridge.context_window_size ?? 0,
      usedPct: used,
      remainingPct: Math.max(0, 100 - used),
      model: bridge.model ?? undefined,
    };
  }
  if (!transcriptPath || !transcriptPath.startsWith("/")) return undefined;
  if (wait && wait.ms > 0 && wait.needle.length >= 8 && wait.withoutBridge !== false)
    wait.outcome = waitForLine(transcriptPath, wait.needle, wait.ms, wait.now, wait.waitMissing?.() ?? true);
  const tail = latestUsage(transcriptPath, cfg["monitor.tail_bytes"]);
  if (!tail) return undefined;
  if (tail.windowSize && tail.agent) return clientReading(tail as TailUsage & { windowSize: number; agent: AgentName });
  const model = tail.model ?? bridge?.model ?? undefined;
  const w = sessionWindow(
    env,
    cfg,
    {
      sessionId,
      model,
      clientVersion: tail.clientVersion,
      usedTokens: tail.usedTokens,
      statusline: bridge?.context_window_size,
    },
    place,
  );
  return { source: "transcript", windowSource: w.source, ...reading(tail.usedTokens, w.window), model: tail.model };
}

/** A hook's reading: the usage its payload carries, else the session's current reading ({@link currentReading}). */
export function hookReading(
  env: Env,
  now: number,
  cfg: Config,
  hook: HookEvent,
  sessionId: string,
  wait: TranscriptWait | undefined,
  place: SessionPlace,
): SourcedReading | undefined {
  if (hook.usage) return payloadReading(hook.usage);
  return currentReading(env, now, cfg, sessionId, hook.transcriptPath, wait, place);
}

/** A reading from the usage a hook payload carries, in the window the client's limits give. */
export function payloadReading(u: PayloadUsage): SourcedReading {
  return { source: "hook", windowSource: "hook", ...reading(u.usedTokens, u.windowSize), model: u.model };
}

/**
 * True when the transcript's newest reading is newer than the bridge: written after the bridge's
 * second (the bridge keeps whole seconds), or within it with other figures. Client 2.1.328 runs
 * the status line less often, so during fast tool turns a fresh bridge can be a request or more behind.
 */
function newerThanBridge(tail: TailUsage, bridge: Bridge): boolean {
  if (tail.atMs === undefined) return false;
  const at = bridge.timestamp * 1000;
  return tail.atMs >= at + 1000 || (tail.atMs >= at && tail.usedTokens !== bridge.used_tokens);
}

/**
 * A reading from a transcript that records its own window (a Codex rollout): the used % as the
 * client's own UI computes it (its adapter's `usedPct`), so ctx and the client show one figure.
 */
export function clientReading(tail: TailUsage & { windowSize: number; agent: AgentName }): SourcedReading {
  const pct = agent(tail.agent).usedPct;
  const r = reading(tail.usedTokens, tail.windowSize);
  if (pct) {
    r.usedPct = pct(tail.usedTokens, tail.windowSize);
    r.remainingPct = Math.max(0, 100 - r.usedPct);
  }
  return { source: "transcript", windowSource: "transcript", ...r, model: tail.model };
}

/**
 * The context usage of a subagent: the latest usage in its own transcript
 * (all sidechain lines), in the window of its own model. Never the bridge or
 * the parent's transcript (they are the parent's figures), and no wait: the
 * hook answers from what the file holds now.
 */
export function subagentReading(
  env: Env,
  cfg: Config,
  sessionId: string,
  path: string | undefined,
): SourcedReading | undefined {
  const tail = path ? latestUsage(path, cfg["monitor.tail_bytes"], true) : undefined;
  if (!tail) return undefined;
  // The subagent's own model decides: not the parent's status line, nor what the parent's client was asked for.
  const w = sessionWindow(env, cfg, {
    sessionId,
    model: tail.model,
    clientVersion: tail.clientVersion,
    usedTokens: tail.usedTokens,
  });
  return { source: "subagent", windowSource: w.source, ...reading(tail.usedTokens, w.window), model: tail.model };
}
