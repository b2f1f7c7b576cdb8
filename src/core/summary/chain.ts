/**
 * The machine-readable twin of a handoff summary (`summary-<task>-<stamp>.json`)
 * and the merge that carries a chain forward: each finalize reads the previous
 * twin of its chain and folds its own session into it. Pure.
 */
import type { ErrorItem, Facts, TaskItem } from "./facts.ts";
import { chainErrors, chainOpenWork, type Evidence, fieldEvidence, type TwinEvidence } from "./evidence.ts";
import { mergeTracker, type TrackerState } from "./tracker.ts";
import { changedInStatus } from "./open-work.ts";
import { cleanTwin } from "./inert.ts";
import { mergeTasks } from "./chain-tasks.ts";

export { mergeTasks };

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
  /** Transcript lines of its newest changes, in session `session`. */
  evidence?: number[];
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
  /** The user's short message that agent message replied to (absent in older twins). */
  latest_follows?: string | null;
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
  /** Failures that are history, not open: how many in the chain, and the lines of the newest ones (in session `session`). */
  errors_history?: { count: number; evidence: number[]; session: number };
  /** Open work that is no failure: an unanswered request, background work still running (this session's). */
  open_work?: Array<{ text: string; evidence: number[]; session: number }>;
  /** The transcript lines the single fields came from (list items carry their own `evidence`). */
  evidence?: TwinEvidence;
  /** This session began mid-story: a compaction summary or a plan, the earlier transcript it names, and whether it is at hand. */
  continues?: { kind: string; line: number; transcript: string | null; at_hand: boolean };
}

export type { Evidence };

/** What one session adds to its chain. */
export interface SessionPart {
  /** Whether the earlier transcript a mid-story session names exists here (io decides; absent: not looked at). */
  previousAtHand?: boolean;
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
  /** `git status --short` of the project at finalize (null: not a repository; absent: not looked at). */
  gitStatus?: string[] | null;
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
  const goalCarried = prev?.goal != null;
  const latest = f.latestReal ?? prev?.latest_request ?? null;
  const answers = f.latestReal !== null ? f.latestAnswers : (prev?.latest_answers ?? null);
  const follows = f.latestReal !== null ? f.latestFollows : (prev?.latest_follows ?? null);
  const tasks = mergeTasks(prev, part);
  const rel = (p: string) => relative(p, part.project);
  const mine: ChainFile[] = [...f.files.values()].reverse().map((x) => ({
    path: rel(x.path),
    ops: ops(x.ops),
    session: at,
    ...(x.from ? { from: rel(x.from) } : {}),
    ...(x.deleted ? { deleted: true } : {}),
    ...(x.evidence ? { evidence: x.evidence } : {}),
  }));
  // a file this session moved is shown once, under its new path
  const seen = new Set(mine.flatMap((x) => (x.from ? [x.path, x.from] : [x.path])));
  const older = (prev?.files ?? []).filter((x) => !seen.has(x.path)).map((x) => ({ ...x, session: shift(x.session) }));
  const files = [...mine, ...older].filter((x) => x.session >= 0);
  const settled = chainErrors(prev, f, at, shift, rel);
  const errors: ChainError[] = settled.errors;
  const decisions = [...(prev?.decisions ?? []), ...f.agentTexts.items].slice(-3);
  const tracker = mergeTracker(prev?.tracker ?? null, f.tracker);
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
    latest_follows: latest && latest !== goal && answers ? follows : null,
    open_tasks: tasks.open,
    completed_tasks: tasks.completed.slice(-MAX_TASKS),
    files: files.slice(0, MAX_FILES),
    files_dropped: (prev?.files_dropped ?? 0) + f.filesDropped + Math.max(0, files.length - MAX_FILES),
    errors: errors.slice(0, MAX_ERRORS),
    // The newest three of the chain: this session's, topped up with the ones before.
    decisions,
    last_step: step && step.session >= 0 ? step : null,
    tracker,
    written_at: part.writtenAt,
    errors_history: settled.history,
    ...(f.midStory
      ? {
          continues: {
            kind: f.midStory.kind,
            line: f.midStory.line,
            transcript: f.midStory.previous ?? null,
            at_hand: part.previousAtHand === true,
          },
        }
      : {}),
    open_work: chainOpenWork(f, at, part.gitStatus ? changedInStatus(part.gitStatus, rel) : undefined),
    evidence: fieldEvidence(prev?.evidence, f, at, shift, {
      goal: goalCarried,
      latest: f.latestReal === null,
      decisionsKept: decisions.length,
      answers: latest !== null && latest !== goal && answers !== null,
      tracker: tracker !== null,
    }),
  });
}

/** `path` relative to `project` when inside it (also inside a text such as `Edit /p/a.ts`). */
export function relative(text: string, project: string): string {
  if (!project || project === "/") return text;
  const base = project.endsWith("/") ? project : `${project}/`;
  return text.split(base).join("");
}

// --- internal ---

function ops(o: Record<string, number>): string {
  return Object.entries(o)
    .map(([k, n]) => (n > 1 ? `${k} ×${n}` : k))
    .join(", ");
}
