/**
 * Which terminal a process runs in, as one string: `tmux:%3` inside a tmux pane (`TMUX_PANE`), else
 * `tty:<device number>` of its controlling terminal (field 7 of `/proc/<pid>/stat`, shared by every
 * process of the terminal's session: the client, its hooks, and a command typed there later).
 * `ctx track` records it on the session's state; `ctx resume --latest` looks for its own. Pure.
 */
import type { Env } from "./deps.ts";
import { isPaneId } from "./label.ts";

/** The terminal id for an environment and a controlling tty's device number (0 or undefined: none). */
export function terminalId(env: Env, ttyNr: number | undefined): string | undefined {
  if (env.TMUX && isPaneId(env.TMUX_PANE)) return `tmux:${env.TMUX_PANE}`;
  return ttyNr !== undefined && Number.isInteger(ttyNr) && ttyNr > 0 ? `tty:${ttyNr}` : undefined;
}

/** The controlling terminal's device number from the text of `/proc/<pid>/stat`, or undefined. */
export function ttyNrOfStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const nr = Number(fields[4]);
  return Number.isInteger(nr) && nr > 0 ? nr : undefined;
}
