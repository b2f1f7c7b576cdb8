/**
 * What a session's subagents did, from their own transcripts
 * (`<session>/subagents/agent-<id>.jsonl`): the handoff summary gives it one line.
 */
import { fieldsOf, isObject, parseObject } from "../json.ts";

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

/**
 * The subagents the session's main chain started: Claude Code's `Task` calls (`Agent` from 2.1.1xx
 * on), background ones (`run_in_background`, "Async agent launched") included, and Codex's
 * `spawn_agent`. The client's compaction agent is never a call; a call the user rejected started nothing.
 */
export interface SubagentCalls {
  /** Tool-use ids of the calls (each once: one API message spans several lines). */
  ids: Set<string>;
  /** Of these, the ones the user rejected. */
  rejected: Set<string>;
}

/** No call seen yet. */
export function emptySubagentCalls(): SubagentCalls {
  return { ids: new Set(), rejected: new Set() };
}

/** Adds one parsed line of the session's own transcript (in place); subagent lines say nothing. */
export function noteSubagentCall(c: SubagentCalls, e: Record<string, unknown>): void {
  if (e.isSidechain === true) return;
  const p = fieldsOf(e.payload);
  if (e.type === "response_item" && p.type === "function_call" && p.name === "spawn_agent") {
    if (typeof p.call_id === "string" && c.ids.size < 10_000) c.ids.add(p.call_id);
    return;
  }
  // A spawn the client refused started nothing: a started agent's output is its JSON (`{"task_name":…}`), a
  // refusal plain text ("collab spawn failed: agent thread limit reached", a wrong argument).
  if (e.type === "response_item" && p.type === "function_call_output" && typeof p.call_id === "string") {
    if (c.ids.has(p.call_id) && !startedAgent(p.output)) c.rejected.add(p.call_id);
    return;
  }
  const content: unknown = fieldsOf(e.message).content;
  if (!Array.isArray(content)) return;
  for (const item of content) {
    const b = fieldsOf(item);
    const id = b.tool_use_id;
    if (e.type === "assistant" && b.type === "tool_use" && (b.name === "Task" || b.name === "Agent")) {
      if (typeof b.id === "string" && c.ids.size < 10_000) c.ids.add(b.id);
    } else if (
      e.type === "user" &&
      b.type === "tool_result" &&
      typeof id === "string" &&
      c.ids.has(id) &&
      rejected(b.content)
    )
      c.rejected.add(id);
  }
}

/** True when a `spawn_agent` output is a started agent's record (a JSON object), not a refusal. */
function startedAgent(output: unknown): boolean {
  return typeof output === "string" ? parseObject(output) !== undefined : isObject(output);
}

/** The subagent runs the main chain started. */
export function subagentCallCount(c: SubagentCalls): number {
  return c.ids.size - c.rejected.size;
}

/** Nothing seen yet. */
export function emptySubagentWork(): SubagentWork {
  return { runs: 0, toolCalls: 0, failed: 0, tools: {}, seen: new Set() };
}

/** Adds one parsed line of a subagent transcript (in place). */
export function addSubagentEntry(w: SubagentWork, e: Record<string, unknown>): void {
  const content: unknown = fieldsOf(e.message).content;
  if (!Array.isArray(content)) return;
  for (const item of content) {
    const block = fieldsOf(item);
    if (e.type === "assistant" && block.type === "tool_use" && typeof block.id === "string") {
      if (w.seen.has(block.id) || w.seen.size >= 100_000) continue;
      w.seen.add(block.id);
      w.toolCalls += 1;
      const name = typeof block.name === "string" ? block.name : "unknown";
      w.tools[name] = (w.tools[name] ?? 0) + 1;
    } else if (e.type === "user" && block.type === "tool_result" && block.is_error === true) w.failed += 1;
  }
}

/**
 * The summary's one line about subagent work, or null when there was none.
 * `tracked` is the session state's `subagent_tool_calls` (hooks seen), used when
 * the transcripts are gone or hold fewer calls. `started` is the runs the main chain
 * started (`subagentCallCount`): the count of runs when known, as a background run's
 * transcript may be missing (a copied session) or still being written.
 */
export function subagentLine(w: SubagentWork, tracked: number, started = 0): string | null {
  const calls = Math.max(w.toolCalls, tracked);
  const count = started > 0 ? started : w.runs;
  if (!count && !calls) return null;
  const byTool = Object.entries(w.tools)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, n]) => (n > 1 ? `${name} ×${n}` : name))
    .join(", ");
  const runs = count ? `${count} subagent run${count === 1 ? "" : "s"}` : "";
  const failed = w.failed ? `, ${w.failed} failed` : "";
  if (!calls) return `- Subagents: ${runs}`; // their transcripts are not at hand
  const tools = `${calls} tool call${calls === 1 ? "" : "s"}${byTool ? ` (${byTool})` : ""}${failed}`;
  return `- Subagents: ${runs ? `${runs}, ` : ""}${tools}`;
}

// --- internal ---

/** The client's answer to a tool call the user turned down (Claude Code's own wording). */
function rejected(content: unknown): boolean {
  const text = typeof content === "string" ? content : Array.isArray(content) ? content[0]?.text : undefined;
  return typeof text === "string" && text.startsWith("The user doesn't want to proceed with this tool use");
}
