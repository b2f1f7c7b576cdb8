/**
 * The context figure a summary reports: the newest of the readings ctx has
 * (bridge file, track state, transcript), never below the reading that
 * triggered the finalize. Pure.
 */

/** One reading and when it was taken. */
export interface UsageCandidate {
  usedTokens: number;
  windowSize: number;
  usedPct: number;
  /** When the reading was taken (ms since the epoch); 0 when unknown. */
  atMs: number;
  source: "bridge" | "state" | "transcript" | "trigger";
}

/**
 * The newest candidate that has a figure (used tokens or % above zero); with
 * `floor` (the monitor's reading that started this finalize), never a lower one.
 */
export function pickUsage(
  candidates: ReadonlyArray<UsageCandidate | undefined>,
  floor?: UsageCandidate,
): UsageCandidate | undefined {
  let best: UsageCandidate | undefined;
  for (const c of candidates) {
    if (!c || (c.usedTokens <= 0 && c.usedPct <= 0)) continue;
    if (!best || c.atMs > best.atMs) best = c;
  }
  if (floor && (floor.usedTokens > 0 || floor.usedPct > 0) && (!best || best.usedPct < floor.usedPct)) return floor;
  return best;
}
