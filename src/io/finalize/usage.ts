/** The context figures a summary reports (issue 10: the summary at CRITICAL tells the truth). */
import { isFresh } from "../../core/bridge.ts";
import type { Config } from "../../core/config-schema.ts";
import { debug, type Deps } from "../../core/deps.ts";
import type { Facts } from "../../core/summary/facts.ts";
import { pickUsage, type UsageCandidate } from "../../core/summary/usage-pick.ts";
import type { SessionState } from "../../core/track/state.ts";
import { percentOf } from "../../core/usage.ts";
import type { TranscriptWindow } from "../../core/window-evidence.ts";
import { stateRoot } from "../../core/paths.ts";
import { readBridge } from "../session/bridge.ts";
import { kinWindow } from "../session/kin-window.ts";
import { sessionWindow, type WindowQuery } from "../session/usage-source.ts";
import { compactionKinds } from "../../core/compaction.ts";
import { ladderOf, levelOfReading, scaleFor, usageWords } from "../../core/levels.ts";
import { isTrackLevel } from "../../core/track/levels.ts";

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
  seen?: TranscriptWindow,
) {
  const bridge = readBridge(deps.env, state.session_id);
  const fresh = bridge && isFresh(bridge, deps.now(), cfg["monitor.bridge_max_age_s"]) ? bridge : undefined;
  // One resolution (core/window.ts) with all the evidence finalize has: this session's status-line
  // payloads (its bridge, fresh or not, or the state's window when one gave it), the transcript's client
  // version, model and automatic compaction, then what the hooks saw of the client.
  // A transcript that records its window (a Codex rollout's `model_context_window`, per turn) is the truth.
  const recorded = facts.windowSize > 0 ? { window: facts.windowSize, source: "transcript" as const } : undefined;
  const query: WindowQuery = {
    sessionId: state.session_id,
    model: seen?.model ?? facts.model ?? state.model ?? undefined,
    clientVersion: seen?.clientVersion,
    usedTokens: Math.max(state.peak_tokens, facts.peakTokens),
    statusline:
      bridge?.context_window_size ||
      (state.context_window_source === "statusline" || state.context_window_source === "hook"
        ? state.window_size
        : undefined),
    autoCompaction: seen?.autoCompaction,
    signed: seen?.signed,
  };
  const place = { root: stateRoot(deps.env, state.project), project: state.project };
  let resolved = recorded ?? sessionWindow(deps.env, cfg, query, place);
  // The client's default depends on the user's plan: the user's other sessions of the project may tell it.
  if (resolved.source === "client_default" && state.transcript_path && query.model) {
    const kin = kinWindow(state.transcript_path, query.model, facts.latestAtMs || deps.now());
    if (kin) resolved = sessionWindow(deps.env, cfg, { ...query, kin }, place);
  }
  const stateWindow = resolved.window;
  debug(deps, `finalize: window ${stateWindow} (${resolved.source})`);
  const window = fresh?.context_window_size || stateWindow;
  // The state's percentages hold only in the window they were taken in.
  const statePct = (tokens: number, pct: number) =>
    state.window_size === stateWindow ? pct : percentOf(tokens, stateWindow);
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
            usedPct: statePct(state.used_tokens, state.used_pct),
          }
        : { ...cand(state.used_tokens, stateWindow, 0, "state"), usedPct: statePct(state.used_tokens, state.used_pct) },
      cand(facts.latestTokens, stateWindow, facts.latestAtMs, "transcript"),
    ],
    floor && { ...cand(floor.usedTokens, floor.windowSize || window, deps.now(), "trigger"), usedPct: floor.usedPct },
  );
  const used = picked ?? cand(0, window, 0, "state");
  const peakTokens = Math.max(state.peak_tokens, facts.peakTokens, used.usedTokens);
  const ladder = ladderOf(cfg);
  return {
    usedPct: used.usedPct,
    usedTokens: used.usedTokens,
    windowSize: used.windowSize,
    peakPct: Math.max(
      state.window_size === used.windowSize ? state.peak_pct : 0,
      percentOf(peakTokens, used.windowSize),
      used.usedPct,
    ),
    compactions: Math.max(state.compactions, facts.compactions),
    ...(facts.compactionList.length ? { kinds: compactionKinds(facts.compactionList) } : {}),
    model: state.model ?? facts.model,
    toolCalls: Math.max(state.tool_calls, facts.toolResults),
    // The level the track state holds; a session ctx never tracked (or never past ok) by its reading.
    level: isTrackLevel(state.threshold_reached) ? state.threshold_reached : levelOfReading(used, ladder),
    // under a budget the levels measured a share of it: the summary says so
    ...(scaleFor(used, ladder).budget !== null ? { budget: usageWords(used, ladder) } : {}),
  };
}
