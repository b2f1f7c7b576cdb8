/**
 * Where a session's handoff summary stands, and how the messages that mention
 * it say so: a message never claims a summary that does not exist.
 */

/** The handoff summary of the current CRITICAL crossing: being written, written (with its path), or failed. */
export type Handoff =
  | { state: "writing"; path?: string }
  | { state: "written"; path: string }
  | { state: "failed"; reason: string };

/** The sentence the agent reads about the handoff, at the end of CONTEXT CRITICAL. */
export function handoffForAgent(h: Handoff): string {
  if (h.state === "written")
    return `The handoff summary is written (${h.path}); the work can be continued from it in a fresh context.`;
  if (h.state === "failed")
    return (
      `The handoff summary could not be written (${h.reason}): record exactly what remains in the task list ` +
      "and commit your work, so it can be continued by hand."
    );
  return "ctx is writing the handoff summary now, so the work can be continued in a fresh context.";
}

/** The clause the user reads about the handoff, in track's CRITICAL message. */
export function handoffForUser(h: Handoff): string {
  if (h.state === "written") return `the handoff summary is written: ${h.path}`;
  if (h.state === "failed") return `the handoff summary could not be written (${h.reason}); see 'ctx doctor'`;
  return h.path
    ? `ctx finalize is writing the handoff summary now (${h.path})`
    : "ctx finalize is writing the handoff summary now";
}
