/**
 * Where a session can keep its plan, from the tools its client really offered (docs/plan-tools.md).
 * Claude Code 2.1.332 writes its first request's tools into the transcript (`api-request-shape`,
 * `shape.tools[].name`) and the deferred tools it lists to the model (`attachment`
 * `deferred_tools_delta`, `addedNames` / `removedNames`); with its default model the task tools
 * (TaskCreate, TaskUpdate) are in neither unless the session enables them. Older clients write
 * neither line: then nothing is known and nothing is claimed. Pure.
 */
import { fieldsOf } from "./json.ts";

/** The tools a transcript shows its session had: top-level (first request) and deferred (ToolSearch). */
export interface SessionTools {
  tools: Set<string>;
  deferred: Set<string>;
  /** The client said so outright: "No such tool available: TaskCreate" (the tool is off). */
  refused: Set<string>;
  /** True once a line listed the tools (an `api-request-shape` or a `deferred_tools_delta`). */
  known: boolean;
}

/** Where the plan goes: the client's task tools, TodoWrite, nowhere but the agent's words, or unknown. */
export type PlanStore = "tasks" | "todos" | "none" | "unknown";

/** Nothing seen yet. */
export function emptySessionTools(): SessionTools {
  return { tools: new Set(), deferred: new Set(), refused: new Set(), known: false };
}

/** Most tool names remembered (a client lists a few dozen). */
const MAX_TOOLS = 400;

/** Adds what one transcript line tells about the session's tools (in place); true when it told something. */
export function noteToolsLine(t: SessionTools, e: Record<string, unknown>): boolean {
  const tools = fieldsOf(e.shape).tools;
  if (e.type === "api-request-shape" && Array.isArray(tools)) {
    if (t.tools.size === 0)
      for (const x of tools.slice(0, MAX_TOOLS)) {
        const name = fieldsOf(x).name;
        if (typeof name === "string") t.tools.add(name);
      }
    t.known = true;
    return true;
  }
  const a = fieldsOf(e.type === "attachment" ? e.attachment : undefined);
  if (a.type === "deferred_tools_delta") {
    const names = (x: unknown) => (Array.isArray(x) ? x.filter((n): n is string => typeof n === "string") : []);
    for (const n of names(a.addedNames).slice(0, MAX_TOOLS)) t.deferred.add(n);
    for (const n of names(a.removedNames)) t.deferred.delete(n);
    t.known = true;
    return true;
  }
  return false;
}

/** A tool result refusing a task tool ("No such tool available: TaskCreate …"): the session has none. */
export function noteRefusal(t: SessionTools, output: string): void {
  const m = /No such tool available: (TaskCreate|TodoWrite|TaskUpdate)\b/.exec(output);
  if (m) t.refused.add(m[1]!);
}

/** Where this session can keep its plan. */
export function planStore(t: SessionTools): PlanStore {
  const has = (n: string) => !t.refused.has(n) && (t.tools.has(n) || t.deferred.has(n));
  if (has("TaskCreate")) return "tasks";
  if (has("TodoWrite")) return "todos";
  if (t.known || t.refused.has("TaskCreate") || t.refused.has("TodoWrite")) return "none";
  return "unknown";
}

/** How the CRITICAL message tells the agent to save what remains, with the tools the session has. */
export function planClause(store: PlanStore): string {
  if (store === "tasks")
    return "update the task list with exactly what remains (TaskCreate / TaskUpdate; load them with ToolSearch `select:TaskCreate,TaskUpdate` if they are deferred)";
  if (store === "todos") return "update the task list with exactly what remains (TodoWrite)";
  if (store === "none")
    return "this session has no task tool, so write exactly what remains as a numbered list in your reply (the handoff summary carries that list as the open tasks)";
  return "update the task list with exactly what remains";
}
