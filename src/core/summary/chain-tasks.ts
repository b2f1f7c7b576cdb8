/** How the tasks of a chain carry from one summary to the next. Pure. */
import type { ChainTask, SessionPart, SummaryTwin } from "./chain.ts";

/** Most completed tasks a twin keeps. */
const MAX_TASKS = 300;

/**
 * The chain's tasks: the previous open ones, minus those this session completed
 * or deleted (matched by id within the same task list, else by subject), with
 * this session's new subject when it renamed one; then the tasks it created.
 * A task completed earlier in the chain never comes back as open.
 */
export function mergeTasks(
  prev: Pick<SummaryTwin, "open_tasks" | "completed_tasks"> | undefined,
  part: Pick<SessionPart, "tasks" | "listId">,
): { open: ChainTask[]; completed: ChainTask[] } {
  const cur: ChainTask[] = part.tasks.map((t) => ({ ...t, list: t.list ?? part.listId }));
  const used = new Set<ChainTask>();
  const match = (p: ChainTask) =>
    cur.find((c) => !used.has(c) && c.list === p.list && c.id === p.id) ??
    cur.find((c) => !used.has(c) && key(c.subject) === key(p.subject));
  const open: ChainTask[] = [];
  const completed = [...(prev?.completed_tasks ?? [])];
  const doneBefore = new Set(completed.map((t) => key(t.subject)));
  for (const p of prev?.open_tasks ?? []) {
    const m = match(p);
    if (!m) open.push(p);
    else {
      used.add(m);
      // A TaskUpdate of a task this session never saw created carries no subject of its own.
      const t = m.subject === `task #${m.id}` ? { ...m, subject: p.subject } : m;
      if (t.status === "completed") {
        if (!doneBefore.has(key(t.subject))) completed.push(t);
      } else if (t.status !== "deleted") open.push(t);
    }
  }
  for (const c of cur) {
    if (used.has(c) || c.status === "deleted" || doneBefore.has(key(c.subject))) continue;
    if (c.status === "completed") completed.push(c);
    else open.push(c);
  }
  return { open: open.slice(0, MAX_TASKS), completed };
}

// --- internal ---

function key(subject: string): string {
  return subject.replace(/\s+/g, " ").trim().toLowerCase();
}
