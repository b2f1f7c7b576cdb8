/**
 * Claude Code subagents (the `Agent` tool): their tool hooks carry `agent_id`
 * and the parent's `session_id` / `transcript_path`, while their own lines go to
 * `<dir of transcript_path>/<session_id>/subagents/agent-<agent_id>.jsonl`.
 * Pure: builds paths, reads nothing.
 */
import { dirname, join } from "./pathx.ts";
import { isValidSessionId } from "./session-id.ts";

/** An agent id becomes part of a file name: the session id alphabet only (`a1b2c3…`). */
function isValidAgentId(id: unknown): id is string {
  return isValidSessionId(id);
}

/**
 * What a hook input says about subagents: `undefined` for the main agent's own
 * calls, the validated agent id for a subagent's, `null` for an `agent_id` that
 * is not safe to use (such a call is judged by nothing rather than by the parent).
 */
export function subagentOf(input: Record<string, unknown>): string | null | undefined {
  if (input.agent_id === undefined || input.agent_id === null) return undefined;
  return isValidAgentId(input.agent_id) ? input.agent_id : null;
}

/** The directory that holds a session's subagent transcripts, or undefined for an unusable input. */
export function subagentDir(transcriptPath: string | undefined, sessionId: unknown): string | undefined {
  if (!transcriptPath?.startsWith("/") || !isValidSessionId(sessionId)) return undefined;
  return join(dirname(transcriptPath), sessionId, "subagents");
}

/** The transcript of one subagent, or undefined when any part is unusable. */
export function subagentTranscript(
  transcriptPath: string | undefined,
  sessionId: unknown,
  agentId: unknown,
): string | undefined {
  const dir = subagentDir(transcriptPath, sessionId);
  return dir && isValidAgentId(agentId) ? join(dir, `agent-${agentId}.jsonl`) : undefined;
}
