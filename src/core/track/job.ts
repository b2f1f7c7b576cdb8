/** What one `ctx track` call applies: the job of a hook payload, or of the plain mode's usage JSON. Pure. */
import { str } from "../hook-input.ts";
import { isObject } from "../json.ts";
import { projectDir } from "../paths.ts";
import { isValidSessionId } from "../session-id.ts";
import { normalizeEvent, type TrackReading } from "./step.ts";
import type { Env } from "../deps.ts";

/** One event to track, from a hook or from the plain mode. */
export interface TrackJob {
  sessionId: string;
  event: string;
  input: Record<string, unknown>;
  project: string;
  transcriptPath?: string;
  reading?: TrackReading;
  /** Plain mode: per-model usage given by the caller. */
  usage?: { model: string; usage: Record<string, unknown> };
}

/** The job of a hook payload, or undefined when it names no event or no valid session. */
export function hookJob(raw: Record<string, unknown>, env: Env, cwd: string): TrackJob | undefined {
  const name = str(raw, "hook_event_name");
  if (!name || !isValidSessionId(raw.session_id)) return undefined;
  const { event, input } = normalizeEvent(name, raw);
  const transcriptPath = str(input, "transcript_path");
  return {
    sessionId: raw.session_id,
    event,
    input,
    project: projectDir(env, input.cwd, cwd),
    transcriptPath: transcriptPath?.startsWith("/") ? transcriptPath : undefined,
  };
}

/**
 * The plain mode's usage: a usage object, or a whole Messages API response (its usage under
 * `usage`, next to `model`). The reason it is unusable, as a string, otherwise.
 */
export function parsePlainUsage(text: string): { usage: Record<string, unknown>; model?: string } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "the usage is not JSON: pass --usage '{\"input_tokens\":…}' or the usage (or a whole API response) on stdin";
  }
  if (!isObject(parsed)) return "the usage must be a JSON object";
  return {
    usage: isObject(parsed.usage) ? parsed.usage : parsed,
    model: typeof parsed.model === "string" ? parsed.model : undefined,
  };
}
