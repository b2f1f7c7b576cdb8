import type { Facts, TaskItem } from "./facts.ts";
import { isTaskId } from "./inert.ts";
import { oneLine } from "./ring.ts";
import { planTasks } from "./plan.ts";

/** Most tasks remembered. */
const MAX_TASKS = 500;

/**
 * Notes a task-tool call. TodoWrite (older clients) sends the full list each
 * time; TaskCreate gets its id only from the result, so it waits for that.
 */
export function onTaskUse(f: Facts, name: string, input: Record<string, unknown>, _id: string): void {
  if (name !== "TodoWrite" || !Array.isArray(input.todos)) return;
  f.todos = (input.todos as unknown[]).slice(0, MAX_TASKS).flatMap((t, i) => {
    if (!t || typeof t !== "object") return [];
    const todo = t as Record<string, unknown>;
    const subject =
      typeof todo.content === "string" ? todo.content : typeof todo.subject === "string" ? todo.subject : "";
    return subject
      ? [
          {
            id: String(i + 1),
            subject: oneLine(subject, 160),
            status: typeof todo.status === "string" ? todo.status : "pending",
            ...(f.line > 0 ? { evidence: [f.line] } : {}),
          },
        ]
      : [];
  });
}

/**
 * Notes a plan tool's call (`{explanation?, plan: [{step, status}]}`, status `pending`, `in_progress`
 * or `completed`; the client's decoder calls it): like TodoWrite, the whole list each time, kept as the todos.
 */
export function onPlanUpdate(f: Facts, input: Record<string, unknown>): void {
  if (!Array.isArray(input.plan)) return;
  onTaskUse(
    f,
    "TodoWrite",
    {
      todos: input.plan.map((p) =>
        p && typeof p === "object" ? { ...p, content: (p as { step?: unknown }).step } : p,
      ),
    },
    "",
  );
}

/** Applies a successful TaskCreate / TaskUpdate result; a task id that is not a short safe one (isTaskId) is ignored. */
export function onTaskResult(
  f: Facts,
  name: string,
  input: Record<string, unknown>,
  _id: string,
  text: string,
  structured: unknown,
): void {
  if (name === "TaskCreate") {
    const s = structured as { task?: { id?: unknown; subject?: unknown } } | undefined;
    const id = typeof s?.task?.id === "string" ? s.task.id : /Task #(\w+)/.exec(text)?.[1];
    const subject =
      typeof input.subject === "string" ? input.subject : typeof s?.task?.subject === "string" ? s.task.subject : "";
    if (isTaskId(id) && f.tasks.size < MAX_TASKS)
      f.tasks.set(id, { id, subject: oneLine(subject, 160), status: "pending", ...lineOf(f) });
  } else if (name === "TaskUpdate") {
    const id =
      typeof input.taskId === "string" ? input.taskId : typeof input.taskId === "number" ? String(input.taskId) : "";
    if (!isTaskId(id)) return;
    const task = f.tasks.get(id) ?? { id, subject: `task #${id}`, status: "pending" };
    if (typeof input.status === "string") task.status = input.status;
    if (typeof input.subject === "string") task.subject = oneLine(input.subject, 160);
    if (f.line > 0) task.evidence = [...(task.evidence ?? []), f.line].slice(-4);
    if (f.tasks.size < MAX_TASKS || f.tasks.has(id)) f.tasks.set(id, task);
  }
}

/**
 * The task list to show: task files from `~/.claude/tasks/<session>/` win (they
 * hold the client's own view), then tasks from the transcript, then TodoWrite.
 */
export function mergedTasks(f: Facts, fromDisk: TaskItem[]): TaskItem[] {
  return sessionTasks(f, fromDisk).filter((t) => t.status !== "deleted");
}

/** Like mergedTasks, but deleted tasks are kept (the chain merge needs them to drop tasks of earlier sessions). */
export function sessionTasks(f: Facts, fromDisk: TaskItem[]): TaskItem[] {
  const byId = new Map<string, TaskItem>();
  for (const t of f.tasks.values()) byId.set(t.id, t);
  for (const t of fromDisk) byId.set(t.id, t);
  const tasks = [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
  if (tasks.length === 0 && f.todos) return f.todos;
  // No task tool in the session (2.1.332's default): its plan lives in the agent's messages.
  if (tasks.length === 0) return planTasks(f);
  return tasks;
}

/** The line being read, as a task's evidence. */
function lineOf(f: Facts): { evidence?: number[] } {
  return f.line > 0 ? { evidence: [f.line] } : {};
}

/** A task file of `~/.claude/tasks/<session>/<n>.json` as a task, or undefined. */
export function parseTaskFile(value: unknown): TaskItem | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const id = typeof v.id === "string" || typeof v.id === "number" ? String(v.id) : "";
  const subject = typeof v.subject === "string" ? v.subject : "";
  if (!isTaskId(id) || !subject) return undefined;
  return { id, subject: oneLine(subject, 160), status: typeof v.status === "string" ? v.status : "pending" };
}
