/**
 * What the user sees on screen when a fresh session starts from a summary (after /clear, a compaction,
 * `ctx resume`): one line, the SessionStart hook's `systemMessage`, naming the summary and its chain. Pure.
 */

/** The one line: `ctx: ↻ 2 · this session continues chain X from summary-….md. Press Enter to start it.` */
export function continuedNotice(summaryName: string, chain: string, n: number, supervised: boolean): string {
  const next = supervised
    ? "ctx respawn starts it."
    : "Press Enter (or type your next request) to start it: the client waits for you.";
  return `ctx: ↻ ${n} · this session continues chain ${chain} from ${summaryName} (its summary is in the agent's context). ${next}`;
}

/** The chain's session number of the fresh session: the sessions its summary covers, plus this one. */
export function continuedNumber(twinSessions: number): number {
  return Math.max(1, twinSessions) + 1;
}
