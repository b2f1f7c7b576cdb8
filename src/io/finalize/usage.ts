/** The context figures a summary reports (issue 10: the summary at CRITICAL tells the truth). */
import { isFresh } from "../../core/bridge.ts";
import type { Config } from "../../core/config-schema.ts";
import type { Deps } from "../../core/deps.ts";
import type { Facts } from "../../core/summary/facts.ts";
import { pickUsage, type UsageCandidate } from "../../core/summary/usage-pick.ts";
import type { SessionState } from "../../core/track/state.ts";
import { percentOf, windowFor } from "../../core/usage.ts";
import { readBridge } from "../session/bridge.ts";

/** A reading given on the command line (`--used-tokens`, `--used-pct`, `--window-size`). */
export interface FloorReading {
  usedTokens: number;
  usedPct: number;
  windowSize: number;
}

/**
 * The context figures for the summary: the newest reading of the bridge file,
 * the track state and the transcript, never below `floor` (the reading that
 * started a finalize at CRITICAL); tool calls from the state when the transcript lags.
 */
export function usageFor(
  state: SessionState,
  tracked: boolean,
  facts: Facts,
  deps: Deps,
  cfg: Config,
  floor?: FloorReading,
) {
  const stateWindow = state.window_size || windowFor(facts.model ?? undefined, facts.peakTokens, false);
  const bridge = readBridge(deps.env, state.session_id);
  const fresh = bridge && isFresh(bridge, deps.now(), cfg["monitor.bridge_max_age_s"]) ? bridge : undefined;
  const window = fresh?.context_window_size || stateWindow;
  const cand = (usedTokens: number, size: number, atMs: number, source: UsageCandidate["source"]) => ({
    usedTokens,
    windowSize: size,
    usedPct: percentOf(usedTokens, size),
    atMs,
    source,
  });
  const picked = pickUsage(
    [
      fresh && { ...cand(fresh.used_tokens ?? 0, window, fresh.timestamp * 1000, "bridge"), usedPct: fresh.used_pct },
      // A session ctx never tracked has no reading of its own (its "state" is the transcript's).
      tracked
        ? {
            ...cand(state.used_tokens, stateWindow, Date.parse(state.updated_at) || 0, "state"),
            usedPct: state.used_pct,
          }
        : { ...cand(state.used_tokens, stateWindow, 0, "state"), usedPct: state.used_pct },
      cand(facts.latestTokens, stateWindow, facts.latestAtMs, "transcript"),
    ],
    floor && { ...cand(floor.usedTokens, floor.windowSize || window, deps.now(), "trigger"), usedPct: floor.usedPct },
  );
  const used = picked ?? cand(0, window, 0, "state");
  const peakTokens = Math.max(state.peak_tokens, facts.peakTokens, used.usedTokens);
  return {
    usedPct: used.usedPct,
    usedTokens: used.usedTokens,
    windowSize: used.windowSize,
    peakPct: Math.max(state.peak_pct, percentOf(peakTokens, used.windowSize), used.usedPct),
    compactions: Math.max(state.compactions, facts.compactions),
    model: state.model ?? facts.model,
    toolCalls: Math.max(state.tool_calls, facts.toolResults),
  };
}
