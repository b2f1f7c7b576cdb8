/**
 * The text a fresh session starts from: a short instruction, then the previous
 * session's handoff summary. Shared by `ctx resume` (first prompt) and
 * `ctx resume --hook` (SessionStart additionalContext).
 */

/** How a summary reaches the new session, which changes the opening line. */
export type PromptVia = "prompt" | "clear" | "compact" | "respawn";

const OPENING: Record<PromptVia, string> = {
  prompt: "You are continuing the work of a previous Claude Code session that ran out of context.",
  clear: "The context was just cleared; this session continues the work of the previous one.",
  compact: "The context was just compacted; here is the handoff summary written before it filled up.",
  respawn: "This session was restarted to continue the work of the previous one, which ran out of context.",
};

/** The instruction every resume prompt carries (the spec's "read the summary and continue"). */
export const RESUME_INSTRUCTION =
  "Read the previous session's summary below and continue the remaining work. " +
  "Check the current state of the files before changing them, do not redo completed steps, " +
  "and start with the first unchecked item of the remaining work.";

/**
 * What the new session's task list holds: `kept` when the client's list
 * (CLAUDE_CODE_TASK_LIST_ID) already has the chain's tasks, `recreate` when it
 * starts empty (a /clear without that variable resets the list).
 */
export type TaskListState = "kept" | "recreate";

/** The task-list instruction, when the summary has open tasks. */
export function taskListNote(summary: string, state: TaskListState | undefined): string[] {
  if (!state || !/^- \[ \] /m.test(summary)) return [];
  return state === "kept"
    ? [
        "Your task list still holds the open tasks below (CLAUDE_CODE_TASK_LIST_ID): check it with TaskList and update them by id; do not create them again.",
      ]
    : [
        'Your task list starts empty: first re-create every open task listed under "Remaining work" with TaskCreate (same subjects), then continue with the first one.',
      ];
}

/** Builds the resume prompt for `summary` (the file's text) read from `summaryPath`. */
export function buildResumePrompt(
  summary: string,
  summaryPath: string,
  via: PromptVia = "prompt",
  tasks?: TaskListState,
): string {
  const body = summary.replace(/\r\n/g, "\n").trim();
  return [
    OPENING[via],
    RESUME_INSTRUCTION,
    ...taskListNote(body, tasks),
    `Summary file: ${summaryPath}`,
    "",
    "<previous-session-summary>",
    body,
    "</previous-session-summary>",
    "",
  ].join("\n");
}

/** The one-line startup hint that an unconsumed summary exists. */
export function hintText(summaryName: string, ageText: string): string {
  return (
    `ctx: an unconsumed handoff summary from a previous session exists (${summaryName}, ${ageText} old); ` +
    "if the user wants to continue that work, run `ctx resume --latest` in a terminal or read the file under .ctx/sessions/."
  );
}

/** True when `text` holds something besides white space. */
export function hasContent(text: string): boolean {
  return text.trim() !== "";
}
