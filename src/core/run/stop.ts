/**
 * Ending a `ctx run` leg from ctx's PostToolUse hook (`ctx monitor`). Pure. Only a leg `ctx run`
 * started is ever stopped: the run gives each leg's client `CTX_RUN_SESSION` (the session id it
 * passes as `--session-id`), and the hook stops only the session of that id, never a subagent.
 */
import type { Env } from "../deps.ts";

/** The variable `ctx run` sets for a leg: the leg's own session id. */
export const RUN_SESSION_VAR = "CTX_RUN_SESSION";

/** The hook output that ends `claude -p` after this tool call (docs/clients.md, "Hook outputs": PostToolUse `continue: false`). */
export interface LegStopOutput {
  continue: false;
  stopReason: string;
}

/**
 * The output that ends the leg, or undefined: when `env` marks a `ctx run` leg whose session is
 * `sessionId`, the event is Claude Code's PostToolUse, and `usedPct` has reached `restartAt` (false: off, never).
 */
export function legStop(
  env: Env,
  event: string | undefined,
  sessionId: string,
  usedPct: number,
  restartAt: number | false,
): LegStopOutput | undefined {
  const leg = env[RUN_SESSION_VAR];
  if (restartAt === false || !leg || leg !== sessionId || event !== "PostToolUse" || !(usedPct >= restartAt))
    return undefined;
  return {
    continue: false,
    stopReason: `ctx run: context at ${usedPct}% (restart at ${restartAt}%); the run goes on in a fresh leg from the summary`,
  };
}
