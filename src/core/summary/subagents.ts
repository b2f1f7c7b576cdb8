/**
 * What a session's subagents did, from their own transcripts
 * (`<session>/subagents/agent-<id>.jsonl`): the handoff summary gives it one line.
 */

/** Subagent work of one session. */
export interface SubagentWork {
  /** Subagent transcripts read. */
  runs: number;
  /** Tool calls the subagents made (tool_use blocks, each id once). */
  toolCalls: number;
  /** Of these, calls whose result was an error. */
  failed: number;
  /** Tool name → calls. */
  tools: Record<string, number>;
  /** Tool-use ids seen (dedupe: one API message spans several lines). */
  seen: Set<string>;
}

/**
 * True for the transcript of a subagent the user's agent started (`agent-<id>.jsonl`), false for
 * the client's own helpers: the compaction agent writes `agent-acompact-<id>.jsonl`.
 */
export function isSubagentRun(fileName: string): boolean {
  return /^agent-[A-Za-z0-9_-]{1,128}\.jsonl$/.test(fileName) && !fileName.startsWith("agent-acompact");
}

/** Nothing seen yet. */
export function emptySubagentWork(): SubagentWork {
  return { runs: 0, toolCalls: 0, failed: 0, tools: {}, seen: new Set() };
}

/** Adds one parsed line of a subagent transcript (in place). */
export function addSubagentEntry(w: SubagentWork, e: Record<string, any>): void {
  const content = e.message?.content;
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (e.type === "assistant" && block?.type === "tool_use" && typeof block.id === "string") {
      if (w.seen.has(block.id) || w.seen.size >= 100_000) continue;
      w.seen.add(block.id);
      w.toolCalls += 1;
      const name = typeof block.name === "string" ? block.name : "unknown";
      w.tools[name] = (w.tools[name] ?? 0) + 1;
    } else if (e.type === "user" && block?.type === "tool_result" && block.is_error === true) w.failed += 1;
  }
}

/**
 * The summary's one line about subagent work, or null when there was none.
 * `tracked` is the session state's `subagent_tool_calls` (hooks seen), used when
 * the transcripts are gone or hold fewer calls; `started` the subagent calls
 * (Task, Agent) the parent's transcript shows answered, when their own
 * transcripts are not at hand.
 */
export function subagentLine(w: SubagentWork, tracked: number, started = 0): string | null {
  const calls = Math.max(w.toolCalls, tracked);
  const runs = Math.max(w.runs, started);
  if (!runs && !calls) return null;
  const own = runs > w.runs ? " (counted in the parent transcript: their own transcripts are not at hand)" : "";
  const byTool = Object.entries(w.tools)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, n]) => (n > 1 ? `${name} ×${n}` : name))
    .join(", ");
  const ran = runs ? `${runs} subagent run${runs === 1 ? "" : "s"}${calls ? ", " : ""}` : "";
  const failed = w.failed ? `, ${w.failed} failed` : "";
  const made = calls ? `${calls} tool call${calls === 1 ? "" : "s"}${byTool ? ` (${byTool})` : ""}${failed}` : "";
  return `- Subagents: ${ran}${made}${own}`;
}
