/** What `ctx run` tells: the progress lines on stderr and the `--json` report. Pure. */
import type { LegEnd, Next } from "./decide.ts";

/** One leg in the `--json` report. */
export interface LegReport {
  /** The leg's number: a leg started again after a usage limit keeps it. */
  n: number;
  session_id: string;
  /** finished (on its own), stopped (by ctx at the restart level), limit, brake (ended by --max-time), failed. */
  end: LegEnd["kind"];
  exit_code: number | null;
  used_pct: number;
  tool_calls: number;
  started_at: string;
  ended_at: string;
  /** The summary the next leg started from. */
  summary?: string;
  /** A usage limit's reset time (ISO), when the client gave one. */
  resets_at?: string;
  /** Seconds waited after this leg at a usage limit. */
  waited_s?: number;
  /** Why a leg failed. */
  detail?: string;
}

/** The `--json` report of a whole run. */
export interface RunReport {
  /** The report's format version (1). */
  version: 1;
  /** The ctx that ran it, as `ctx --version` prints it. */
  ctx_version: string;
  /** done, failed, brake, limit. */
  outcome: "done" | "failed" | "brake" | "limit";
  exit_code: number;
  task_id: string;
  elapsed_s: number;
  legs: LegReport[];
  /** The brake that ended the run: max_legs, max_time, no_progress. */
  brake?: string;
  message?: string;
  /** The final leg's result text. */
  result?: string;
  /** The summary of the last leg, written when the run ended (always, so a workflow has one to upload). */
  summary?: string;
}

/** The closing line: legs counted as `.legs` counts them (a leg run again after a usage limit is one more). */
export function doneLine(legs: readonly { n: number }[], elapsedS: number): string {
  const distinct = new Set(legs.map((l) => l.n)).size;
  const again = legs.length - distinct;
  const runs = `${legs.length} leg${legs.length === 1 ? "" : "s"}`;
  return `ctx run: done after ${runs}${again > 0 ? ` (${again} run again after a usage limit)` : ""} in ${elapsedS} s`;
}

/** How a later leg is reminded of the run's goal (the user's own words, as given). */
export function goalLine(goal: string): string {
  return `The goal of this run, as the user gave it to ctx run -p:\n${goal.trim()}`;
}

/** The progress line of a leg's start. */
export function startLine(n: number, sessionId: string, retry: boolean): string {
  return `ctx run: leg ${n} started${retry ? " again after the usage limit" : ""} (session ${sessionId})`;
}

/** The progress line of a leg's end. */
export function endLine(n: number, end: LegEnd, usedPct: number, restartAt: number | false): string {
  switch (end.kind) {
    case "finished":
      return `ctx run: leg ${n} finished on its own at ${usedPct}% used`;
    case "stopped":
      return `ctx run: leg ${n} ended at ${usedPct}% used (restart at ${restartAt}%)`;
    case "limit":
      return `ctx run: leg ${n} hit the usage limit: ${end.hit.text || "429"}`;
    case "brake":
      return `ctx run: leg ${n} ended at a brake: ${end.detail}`;
    case "failed":
      return `ctx run: leg ${n} failed: ${end.detail}`;
  }
}

/** The progress line of a decision that ends the run or waits. */
export function nextLine(next: Next, resetsAt: number | undefined): string | undefined {
  switch (next.type) {
    case "wait": {
      const at =
        resetsAt === undefined ? "no reset time given, backing off" : `resets ${new Date(resetsAt).toISOString()}`;
      return `ctx run: waiting ${Math.ceil(next.ms / 1000)} s for the usage limit (${at})`;
    }
    case "brake":
      return `ctx run: gave up at a brake (${next.name}): ${next.message}`;
    case "limit_gave_up":
      return `ctx run: gave up at the usage limit: ${next.message}`;
    default:
      return undefined;
  }
}
