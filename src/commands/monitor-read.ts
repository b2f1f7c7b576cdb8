/** How the settings hook `ctx monitor` reads a session's usage: the bridge or the transcript. */
import type { Config } from "../core/config-schema.ts";
import type { Deps } from "../core/deps.ts";
import type { HookEvent } from "../core/agents/index.ts";
import { layout, STATE_DIRS } from "../core/layout.ts";
import { ensureDirUnder } from "../io/fs/dirs.ts";
import { mtimeMs } from "../io/fs/read.ts";
import { writeFileAtomic } from "../io/fs/write.ts";
import { hookReading, hookWait, type SourcedReading } from "../io/session/usage-source.ts";

/** The payload's own usage, else the bridge or the transcript, as a settings hook reads them (io/session/usage-source.ts). */
export function readUsage(
  hook: HookEvent,
  sessionId: string,
  root: string,
  project: string,
  cfg: Config,
  now: number,
  deps: Deps,
): SourcedReading | undefined {
  const wait = hookWait(hook, cfg["monitor.transcript_wait_ms"], deps.now);
  // A session's first hook may run before its transcript exists: wait for it once; if it never
  // shows up (transcripts turned off), remember that and stop waiting for it on every tool call.
  const noTranscript = layout(root).monitorFile(sessionId, ".no-transcript")!;
  if (wait) wait.waitMissing = () => mtimeMs(noTranscript) === undefined;
  const reading = hookReading(deps.env, now, cfg, hook, sessionId, wait, { root, project });
  if (wait?.outcome === "missing" && mtimeMs(noTranscript) === undefined) markNoTranscript(root, noTranscript);
  return reading;
}

/** How this session saves its plan, read at CRITICAL only: the transcript reader stays off the hot path. */
export const planOf = (path: string | undefined): string | undefined =>
  (require("../io/transcript/session-tools.ts") as typeof import("../io/transcript/session-tools.ts")).planFor(path);

// --- internal ---

function markNoTranscript(root: string, path: string): void {
  try {
    ensureDirUnder(root, STATE_DIRS.monitor);
    writeFileAtomic(path, "", 0o600);
  } catch {
    // a read-only state directory: we will wait again next time, nothing worse
  }
}
