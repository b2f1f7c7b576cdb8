/** The facts of a quiet idle turn's end, as a client's plugin or mod sends them in `ctx_idle`. */
import type { IdleFacts } from "../../src/core/respawn/in-client.ts";

/** The turn ended on an answer; no draft, dialog, queued prompt, running subagent or usage limit. */
export const QUIET_IDLE: IdleFacts = {
  turnReason: "answer",
  draft: false,
  dialogOpen: false,
  queuedPrompt: false,
  subagentsRunning: 0,
  limited: false,
};
