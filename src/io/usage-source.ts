import { isFresh } from "../core/bridge.ts";
import type { Config } from "../core/config-schema.ts";
import { reading, windowFor, type ContextReading } from "../core/usage.ts";
import { readBridge } from "./bridge.ts";
import { latestUsage, waitForLine } from "./transcript-tail.ts";

/** A context reading with where it came from. */
export interface SourcedReading extends ContextReading {
  source: "bridge" | "transcript";
  model?: string;
}

/**
 * The current context usage of a session: the bridge file when it is fresh
 * (it carries Claude Code's own figures), else the transcript's latest
 * main-chain usage (headless `claude -p` runs have no status line). With
 * `wait`, the transcript is first given a moment to receive the line of the
 * request that called the tool, so the reading is not one request behind.
 */
export function currentReading(
  env: Record<string, string | undefined>,
  nowMs: number,
  cfg: Config,
  sessionId: string,
  transcriptPath: string | undefined,
  wait?: { toolUseId: string; ms: number; now: () => number },
): SourcedReading | undefined {
  const bridge = readBridge(env, sessionId);
  if (bridge && isFresh(bridge, nowMs, cfg["monitor.bridge_max_age_s"])) {
    const used = Math.max(0, bridge.used_pct);
    return {
      source: "bridge",
      usedTokens: bridge.used_tokens ?? 0,
      windowSize: bridge.context_window_size ?? 0,
      usedPct: used,
      remainingPct: Math.max(0, 100 - used),
      model: bridge.model ?? undefined,
    };
  }
  if (!transcriptPath || !transcriptPath.startsWith("/")) return undefined;
  if (wait && wait.ms > 0 && /^[A-Za-z0-9_-]{1,200}$/.test(wait.toolUseId)) waitForLine(transcriptPath, wait.toolUseId, wait.ms, wait.now);
  const tail = latestUsage(transcriptPath, cfg["monitor.tail_bytes"]);
  if (!tail) return undefined;
  const size = bridge?.context_window_size || windowFor(tail.model ?? bridge?.model ?? undefined, tail.usedTokens, cfg["context.window_size"]);
  return { source: "transcript", ...reading(tail.usedTokens, size), model: tail.model };
}
