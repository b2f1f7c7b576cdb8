/** What one `ctx track` call applies: the job of a hook payload, or of the plain mode's usage JSON. Pure. */
import { decodeHook, type HookEvent } from "../agents/index.ts";
import { isObject } from "../json.ts";
import { projectDir } from "../paths.ts";
import { isValidSessionId } from "../session-id.ts";
import type { TrackReading } from "./step.ts";
import type { Env } from "../deps.ts";

/** One event to track, from a hook or from the plain mode. */
export interface TrackJob {
  sessionId: string;
  /** ctx's normalised event, or the client's own name for an event ctx does not map. */
  event: string;
  /** The payload in Claude Code's field names. */
  input: Record<string, unknown>;
  /** The decoded hook payload (hook mode only). */
  hook?: HookEvent;
  project: string;
  transcriptPath?: string;
  reading?: TrackReading;
  /** Plain mode: per-model usage given by the caller. */
  usage?: { model: string; usage: Record<string, unknown> };
}

/**
 * The job of a hook payload decoded by its client's adapter (`decodeHook`), or undefined when it
 * names no event, no client claims it, or its session id is not valid.
 */
export function hookJob(raw: Record<string, unknown>, env: Env, cwd: string): TrackJob | undefined {
  const hook = decodeHook(raw);
  if (!hook || !isValidSessionId(hook.sessionId)) return undefined;
  return {
    sessionId: hook.sessionId,
    event: hook.event ?? hook.rawEvent,
    input: hook.input,
    hook,
    project: projectDir(env, hook.cwd, cwd),
    transcriptPath: hook.transcriptPath?.startsWith("/") ? hook.transcriptPath : undefined,
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
