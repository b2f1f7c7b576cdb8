/**
 * A session's label, the name people know it by: its tmux window's name when the window was named
 * (`tmux new-window -n api`, `rename-window`), else `<tmux session>:<window index>` in tmux, else
 * the name the client gives the session (`session_name` of the status-line payload), else the
 * first 8 characters of the session id. Pure; io/session/label.ts asks tmux once per session.
 */
import { terminalSafe } from "./terminal.ts";

/** What `tmux display -p -t $TMUX_PANE` is asked for: session, window index, window name, automatic-rename. */
export const TMUX_LABEL_FORMAT = "#{session_name}\t#{window_index}\t#{window_name}\t#{automatic-rename}";

/** Longest label kept (the status line and `ctx status` show it whole). */
export const LABEL_MAX = 24;

/** The short id of a session: its first 8 characters. */
export function shortId(sessionId: string): string {
  return sessionId.slice(0, 8);
}

/** The label from tmux's answer to {@link TMUX_LABEL_FORMAT}, or undefined when the answer is not one. */
export function tmuxLabel(answer: string): string | undefined {
  const [session, index, name, auto] = answer.replace(/\n+$/, "").split("\t");
  if (session === undefined || index === undefined || name === undefined || auto === undefined) return undefined;
  // automatic-rename on: the name is the running command's ("claude"), not one a person chose
  const label = clean(auto === "0" && name !== "" ? name : `${session}:${index}`);
  return label === "" || label === ":" ? undefined : label;
}

/** The label of a session: tmux's when given, else the client's session name, else the short id. */
export function sessionLabel(sessionId: string, fromTmux?: string, sessionName?: unknown): string {
  if (fromTmux) return clean(fromTmux);
  const named = typeof sessionName === "string" ? clean(sessionName) : "";
  return named !== "" ? named : shortId(sessionId);
}

/** True for a TMUX_PANE value tmux gives (`%12`): anything else is not asked about. */
export function isPaneId(v: unknown): v is string {
  return typeof v === "string" && /^%[0-9]{1,9}$/.test(v);
}

// --- internal ---

function clean(s: string): string {
  const safe = terminalSafe(s).replace(/\s+/g, " ").trim();
  return safe.length > LABEL_MAX ? `${safe.slice(0, LABEL_MAX - 1)}…` : safe;
}
