/**
 * The machine-readable twin of a handoff summary (`summary-<task>-<stamp>.json`)
 * and the merge that carries a chain forward: each finalize reads the previous
 * twin of its chain and folds its own session into it. Pure.
 */
import { isResolved } from "./errors.ts";
import type { ErrorItem, Facts, TaskItem } from "./facts.ts";
import { mergeTracker, type TrackerState } from "./tracker.ts";
import { cleanTwin } from "./inert.ts";

/** A task with the task list it belongs to (ids are only unique within one list). */
export interface ChainTask extends TaskItem {
  /** The task list: CLAUDE_CODE_TASK_LIST_ID, else the session id. */
  list: string;
}

/** A file changed somewhere in the chain. */
export interface ChainFile {
  /** Relative to the project when inside it. */
  path: string;
  /** The tools that changed it in that session, e.g. `Edit ×2, Write`. */
  ops: string;
  /** Index into `sessions` of the newest session that changed it. */
  session: number;
  /** Its path before a command moved it (relative like `path`). */
  from?: string;
  /** A command deleted it. */
  deleted?: boolean;
}

/** An error no later step resolved. */
export interface ChainError extends ErrorItem {
  /** failureKey (errors.ts): what a later success must achieve. */
  key: string;
  /** Index into `sessions`. */
  session: number;
}

/** The twin: everything the next finalize of the chain needs, so nothing is parsed back out of Markdown. */
export interface SummaryTwin {
  version: 1;
  task_id: string;
  /** The session this summary is about (the newest of the chain). */
  session_id: string;
  /** The chain's sessions, oldest first (the oldest beyond MAX_SESSIONS are dropped and counted). */
  sessions: string[];
  /** Sessions dropped from the front of `sessions`. */
  sessions_dropped: number;
  /** The chain's first real request. */
  goal: string | null;
  /** The newest real request, when it differs from the goal. */
  latest_request: string | null;
  /** The agent message that request answers, when the request is short (absent in older twins). */
  latest_answers?: string | null;
  open_tasks: ChainTask[];
  /** Oldest first. */
  completed_tasks: ChainTask[];
  /** Newest first. */
  files: ChainFile[];
  /** Files of the chain not in `files`. */
  files_dropped: number;
  /** Newest first. */
  errors: ChainError[];
  /** The agent's last messages in the chain (at most three), oldest first. */
  decisions: string[];
  /** The newest step that changed something, and the session index it was in. */
  last_step: { text: string; session: number } | null;
  /** A command-line tracker the chain used (`bd`, `gh issue`, …) and its last listing, or null. */
  tracker: TrackerState | null;
  /** ISO-8601. */
  written_at: string;
}

/** What one session adds to its chain. */
export interface SessionPart {
  taskId: string;
  sessionId: string;
  /** The session's task list id (CLAUDE_CODE_TASK_LIST_ID, else the session id). */
  listId: string;
  /** The chain as the session links know it, oldest first, this session last. */
  links: string[];
  facts: Facts;
  /** The session's tasks, deleted ones included (sessionTasks). */
  tasks: TaskItem[];
  project: string;
  writtenAt: string;
}

/** Most sessions, files, errors and completed tasks a twin keeps. */
export const MAX_SESSIONS = 200;
const MAX_FILES = 200;
const MAX_ERRORS = 30;
const MAX_TASKS = 300;

/**
 * Folds one session into the previous twin of its chain (none for the chain's first summary); every
 * field of the result is one clean line (cleanTwin), whatever the transcript or the previous twin held.
 */
export function mergeChain(prev: SummaryTwin | undefined, part: SessionPart): SummaryTwin {
  const f = part.facts;
  const all = [...(prev?.sessions ?? [])];
  for (const id of part.links) if (!all.includes(id)) all.push(id);
  if (all[all.length - 1] !== part.sessionId) all.push(part.sessionId);
  const cut = Math.max(0, all.length - MAX_SESSIONS);
  const sessions = all.slice(cut);
  const shift = (i: number) => i - cut; // indices of the previous twin are indices of `all`
  const at = sessions.length - 1;
  const goal = prev?.goal ?? f.goal;
  const latest = f.latestReal ?? prev?.latest_request ?? null;
  const answers = f.latestReal !== null ? f.latestAnswers : (prev?.latest_answers ?? null);
  const tasks = mergeTasks(prev, part);
  const rel = (p: string) => relative(p, part.project);
  const mine: ChainFile[] = [...f.files.values()].reverse().map((x) => ({
    path: rel(x.path),
    ops: ops(x.ops),
    session: at,
    ...(x.from ? { from: rel(x.from) } : {}),
    ...(x.deleted ? { deleted: true } : {}),
  }));
  // a file this session moved is shown once, under its new path
  const seen = new Set(mine.flatMap((x) => (x.from ? [x.path, x.from] : [x.path])));
  const older = (prev?.files ?? []).filter((x) => !seen.has(x.path)).map((x) => ({ ...x, session: shift(x.session) }));
  const files = [...mine, ...older].filter((x) => x.session >= 0);
  const errors: ChainError[] = [
    ...[...f.unresolved.entries()].reverse().map(([key, e]) => ({ ...e, target: rel(e.target), key, session: at })),
    ...(prev?.errors ?? [])
      .filter((e) => !isResolved(e.key, f.succeeded) && !f.unresolved.has(e.key))
      .map((e) => ({ ...e, session: shift(e.session) })),
  ].filter((e) => e.session >= 0);
  const step = f.lastStep
    ? { text: rel(f.lastStep), session: at }
    : prev?.last_step
      ? { ...prev.last_step, session: shift(prev.last_step.session) }
      : null;
  return cleanTwin({
    version: 1,
    task_id: part.taskId,
    session_id: part.sessionId,
    sessions,
    sessions_dropped: (prev?.sessions_dropped ?? 0) + cut,
    goal,
    latest_request: latest && latest !== goal ? latest : null,
    latest_answers: latest && latest !== goal ? answers : null,
    open_tasks: tasks.open,
    completed_tasks: tasks.completed.slice(-MAX_TASKS),
    files: files.slice(0, MAX_FILES),
    files_dropped: (prev?.files_dropped ?? 0) + f.filesDropped + Math.max(0, files.length - MAX_FILES),
    errors: errors.slice(0, MAX_ERRORS),
    // The newest three of the chain: this session's, topped up with the ones before.
    decisions: [...(prev?.decisions ?? []), ...f.agentTexts.items].slice(-3),
    last_step: step && step.session >= 0 ? step : null,
    tracker: mergeTracker(prev?.tracker ?? null, f.tracker),
    written_at: part.writtenAt,
  });
}

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
  const cur: ChainTask[] = part.tasks.map((t) => ({ ...t, list: part.listId }));
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

/** `path` relative to `project` when inside it (also inside a text such as `Edit /p/a.ts`). */
export function relative(text: string, project: string): string {
  if (!project || project === "/") return text;
  const base = project.endsWith("/") ? project : `${project}/`;
  return text.split(base).join("");
}

// --- internal ---

function key(subject: string): string {
  return subject.replace(/\s+/g, " ").trim().toLowerCase();
}

function ops(o: Record<string, number>): string {
  return Object.entries(o)
    .map(([k, n]) => (n > 1 ? `${k} ×${n}` : k))
    .join(", ");
}
