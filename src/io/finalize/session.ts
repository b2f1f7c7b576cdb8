/** Which session a typed `ctx finalize` is about, and the state of one ctx never tracked. */
import { basename } from "node:path";
import type { Deps } from "../../core/deps.ts";
import { layout } from "../../core/layout.ts";
import { stateRoot } from "../../core/paths.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { taskIdFor } from "../../core/track/stamp.ts";
import { initialState, type SessionState } from "../../core/track/state.ts";
import { reading } from "../../core/usage.ts";
import { loadConfig } from "../config.ts";
import { readJsonFile } from "../fs/read.ts";
import { sessionWindow } from "../session/usage-source.ts";
import { latestUsage } from "../transcript/tail.ts";

/** The session a transcript file is named after, else the latest one (`context-usage.json`). */
export function latestSession(root: string, transcript: string | undefined): string | undefined {
  const fromName = transcript ? basename(transcript).replace(/\.jsonl$/, "") : undefined;
  if (isValidSessionId(fromName)) return fromName;
  const read = readJsonFile<{ session_id?: unknown }>(layout(root).contextUsage, {
    maxBytes: 4 * 1024 * 1024,
  });
  return read.status === "ok" && isValidSessionId(read.value?.session_id) ? read.value.session_id : undefined;
}

/** A state for a session ctx never tracked: usage comes from the transcript's latest request. */
export function bareState(
  sessionId: string,
  project: string,
  transcriptPath: string | undefined,
  deps: Deps,
  iso: string,
): SessionState {
  const s = initialState(sessionId, project, taskIdFor(deps.env.CTX_TASK_ID, sessionId), iso);
  s.transcript_path = transcriptPath ?? null;
  const cfg = loadConfig(deps, project);
  const tail = transcriptPath ? latestUsage(transcriptPath, cfg["monitor.tail_bytes"]) : undefined;
  if (tail) {
    const w = sessionWindow(
      deps.env,
      cfg,
      { sessionId, model: tail.model, clientVersion: tail.clientVersion, usedTokens: tail.usedTokens },
      { root: stateRoot(deps.env, project), project },
    );
    const r = reading(tail.usedTokens, w.window);
    Object.assign(s, {
      used_tokens: r.usedTokens,
      used_pct: r.usedPct,
      window_size: r.windowSize,
      context_window: r.windowSize,
      context_window_source: w.source,
      peak_tokens: r.usedTokens,
      peak_pct: r.usedPct,
      model: tail.model ?? s.model,
    });
  }
  return s;
}
