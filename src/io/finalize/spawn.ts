import { debug, type Deps } from "../../core/deps.ts";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { stateRoot } from "../../core/paths.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { createNew, writeFileAtomic } from "../fs/write.ts";
import { readJsonFile } from "../fs/read.ts";
import { loadState } from "../session/store.ts";
import { freeStamp } from "./inputs.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { unlinkQuiet } from "../fs/sys.ts";
import { selfCommand, spawnDetached } from "../process/proc.ts";

/** Which session to finalize, and where. */
export interface FinalizeTarget {
  project: string;
  sessionId: string;
  transcriptPath: string | null | undefined;
  /** The session has ended: the ACTIVE-PAUSE log is archived and removed. */
  ended?: boolean;
  /** The reading that started it: the summary reports no less. */
  floor?: { usedTokens: number; usedPct: number; windowSize: number };
  /** What started it (`--reason`). */
  reason?: string;
}

/**
 * Starts `ctx finalize` for a session as a detached background process and
 * returns at once (SessionEnd hooks get about 1.5 s in all). True when started.
 */
export async function startFinalize(deps: Pick<Deps, "env" | "stderr">, t: FinalizeTarget): Promise<boolean> {
  if (!isValidSessionId(t.sessionId)) return false;
  const argv = [...selfCommand(), "finalize", "--session", t.sessionId, "--project", t.project];
  if (t.transcriptPath) argv.push("--transcript", t.transcriptPath);
  if (t.ended) argv.push("--ended");
  if (t.reason) argv.push("--reason", t.reason);
  if (t.floor) {
    const int = (n: number) => String(Math.max(0, Math.round(n)));
    argv.push("--used-tokens", int(t.floor.usedTokens), "--used-pct", int(t.floor.usedPct));
    argv.push("--window-size", int(t.floor.windowSize));
  }
  const pid = await spawnDetached(argv, deps.env, t.project);
  debug(deps, `finalize: started in the background (pid ${pid ?? "none"}) for ${t.sessionId}`);
  return pid !== undefined;
}

/**
 * Claims the stamp the crossing's finalize will write under and keeps it in the marker (`{"stamp": …}`),
 * so the CRITICAL message names the exact summary before it exists (`ctx resume <path>`): the session's
 * own stamp when it has one, else a free one, claimed as finalize claims it (io/finalize/inputs.ts).
 */
function planStamp(root: string, sessionId: string, marker: string): void {
  try {
    const files = layout(root);
    const state = loadState(files.stateFile(sessionId) ?? "", Date.now());
    ensureDirUnder(root, STATE_DIRS.records);
    const stamp = state?.finalized_stamp ?? freeStamp(files.records, sessionId, Date.now());
    writeFileAtomic(marker, `${JSON.stringify({ stamp })}\n`);
  } catch {
    // an empty marker: the message says the summary is being written, without its path
  }
}

/** The stamp the crossing's marker planned for the session's finalize, when there is one. */
export function plannedStamp(root: string, sessionId: string): string | undefined {
  const marker = layout(root).finalizeMarker(sessionId);
  const read = marker ? readJsonFile<{ stamp?: unknown }>(marker, { maxBytes: 4096 }) : undefined;
  const stamp = read?.status === "ok" ? read.value?.stamp : undefined;
  return typeof stamp === "string" && /^\d{8}-\d{6}$/.test(stamp) ? stamp : undefined;
}

/**
 * For the monitor: when the level is critical (or auto_pause, above it), starts a background finalize at
 * most once per critical crossing (a marker `<root>/state/monitor/<sid>.finalize`
 * created exclusively); any other level removes the marker so the next crossing
 * finalizes again. True when a finalize was started.
 */
export async function finalizeOnCritical(
  deps: Pick<Deps, "env" | "stderr">,
  t: {
    project: string;
    sessionId: string;
    transcriptPath?: string | null;
    level: string;
    /** The monitor's reading that reached CRITICAL. */
    reading?: { usedTokens: number; usedPct: number; windowSize: number };
  },
): Promise<boolean> {
  const marker = layout(stateRoot(deps.env, t.project)).finalizeMarker(t.sessionId);
  if (!marker) return false;
  if (t.level !== "critical" && t.level !== "auto_pause") {
    unlinkQuiet(marker);
    return false;
  }
  const root = stateRoot(deps.env, t.project);
  try {
    ensureDirUnder(root, STATE_DIRS.monitor);
    createNew(marker);
  } catch {
    return false; // already finalized for this crossing (or not writable)
  }
  planStamp(root, t.sessionId, marker);
  return startFinalize(deps, {
    project: t.project,
    sessionId: t.sessionId,
    transcriptPath: t.transcriptPath,
    floor: t.reading,
    reason: "critical",
  });
}
