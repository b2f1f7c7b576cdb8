/** The usage reading one `ctx track` call applies: from the plain mode's usage, else the mod's figure, the bridge or the transcript. */
import type { Config } from "../../core/config-schema.ts";
import { debug, type Deps } from "../../core/deps.ts";
import { stateRoot } from "../../core/paths.ts";
import type { TrackJob } from "../../core/track/job.ts";
import type { TrackReading } from "../../core/track/step.ts";
import { contextTokens, reading } from "../../core/usage.ts";
import { layout } from "../../core/layout.ts";
import { scaleOf, thresholdTokens } from "../../core/budget.ts";
import { loadState } from "../session/store.ts";
import { readModRecord } from "../session/mod-record.ts";
import { currentReading, hookWait, payloadReading, sessionWindow } from "../session/usage-source.ts";

/** The reading for `job`, or undefined when there is none to apply. */
export function readingFor(job: TrackJob, deps: Deps, cfg: Config): TrackReading | undefined {
  if (job.usage) {
    const used = contextTokens(job.usage.usage);
    const model = job.usage.model === "unknown" ? undefined : job.usage.model;
    const w = sessionWindow(deps.env, cfg, { sessionId: job.sessionId, model, usedTokens: used });
    return { ...reading(used, w.window), model, windowSource: w.source };
  }
  if (job.hook?.usage) return payloadReading(job.hook.usage);
  // The client writes its transcript in batches: a Stop (once per turn) always waits for the
  // turn's last message; a tool hook only near the levels, where one request late matters.
  // A subagent's tool line is never written to the parent's transcript: do not wait for it there.
  const subagent = job.input.agent_id !== undefined && job.input.agent_id !== null;
  // Under ctx's Claude Code mod, the client's own figure of the newest request (state/monitor/<sid>.mod.json).
  const rec = subagent ? undefined : readModRecord(stateRoot(deps.env, job.project), job.sessionId, deps.now());
  if (rec)
    return {
      usedTokens: rec.used_tokens,
      windowSize: rec.window,
      usedPct: rec.used_pct,
      model: rec.model ?? undefined,
      windowSource: "statusline",
    };
  // With a fresh bridge, currentReading decides from the bridge's figure, as it does for ctx monitor.
  const wait = job.hook && !subagent ? hookWait(job.hook, cfg["track.transcript_wait_ms"], deps.now) : undefined;
  if (wait) {
    wait.withoutBridge = job.event === "Stop" || nearLevels(job, deps, cfg);
    wait.waitMissing = () => false; // past the first turns the transcript exists; a missing one will not appear
  }
  const place = { root: stateRoot(deps.env, job.project), project: job.project };
  const r = currentReading(deps.env, deps.now(), cfg, job.sessionId, job.transcriptPath, wait, place);
  if (r) debug(deps, `track: window ${r.windowSize} (${r.windowSource})`);
  return r
    ? {
        usedTokens: r.usedTokens,
        windowSize: r.windowSize,
        usedPct: r.usedPct,
        model: r.model,
        windowSource: r.windowSource,
      }
    : undefined;
}

// --- internal ---

/**
 * True when the session is past half the warning level (read without a lock: a hint only). Not
 * only from the warning level on: a reading one request late can sit below it while the request
 * that is late crosses it, and one jump can then cross two levels, so the user never hears the
 * one between (50 % → 66 % read late, 76 % missed, then 91 %). Nor when the state has no reading yet: a
 * session's first tool hooks often run before the client writes the request's line, and a session
 * that starts at 0 % read late reads 50 % while the request at 66 % passes unseen.
 */
function nearLevels(job: TrackJob, deps: Deps, cfg: Config): boolean {
  const path = layout(stateRoot(deps.env, job.project)).stateFile(job.sessionId);
  const s = path ? loadState(path, deps.now()) : undefined;
  // half the warning level, in tokens on the session's scale (a % of min(window, budget), or tokens)
  const warning = thresholdTokens(cfg["levels.warning"], scaleOf(s?.window_size ?? 0, cfg["context.budget"]));
  // No reading yet (its first tool hooks ran before the client wrote a line): unknown is not far from the levels.
  return !!s && warning !== false && (s.used_tokens === 0 || s.used_tokens >= warning / 2);
}
