/** The items the summary lists: tasks, failed calls, commands, changed files. */

/** A task from TaskCreate/TaskUpdate, TodoWrite or ~/.claude/tasks. */
export interface TaskItem {
  /** Task id (`#1`), or the TodoWrite position. */
  id: string;
  subject: string;
  /** pending, in_progress, completed or deleted. */
  status: string;
  /** Transcript lines (1-based) the task was created or last changed on; absent for a task file's. */
  evidence?: number[];
  /** `plan` for an item of a plan kept in the agent's messages (plan.ts), not in a task list. */
  list?: string;
}

/** A failed tool call. */
export interface ErrorItem {
  tool: string;
  /** The command, file or other argument that failed. */
  target: string;
  /** The first part of the error output. */
  message: string;
  /** Transcript lines (1-based) of the call and of its failed result. */
  evidence?: number[];
  /** Tool results seen before this one (where in the session it failed). */
  step?: number;
  /** Agent text messages seen before it (a later one may report the work done). */
  said?: number;
  /** It tried to achieve something (it has a failureKey): a lookup or a malformed call has not. */
  attempt?: boolean;
}

/** A shell command and whether it succeeded. */
export interface CommandItem {
  command: string;
  ok: boolean;
  /** Transcript lines (1-based) of the call and of its result. */
  evidence?: number[];
}

/** A file changed by Write, Edit, MultiEdit or NotebookEdit. */
export interface FileItem {
  path: string;
  /** Tool name → successful calls. */
  ops: Record<string, number>;
  /** The path it had before a command moved it here (`mv`, `git mv`). */
  from?: string;
  /** A command deleted it (`rm`, `git rm`) after any change above. */
  deleted?: boolean;
  /** Transcript lines (1-based) of its newest changes (at most five). */
  evidence?: number[];
}
