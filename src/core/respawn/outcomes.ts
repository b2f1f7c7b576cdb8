/**
 * What the supervisor's child processes said, as the machine's events:
 * `finalize_done` from `ctx finalize`'s exit and output, `ai_verdict` from
 * `claude -p`'s answer. The driver only runs them (io/respawn/actions.ts).
 */
import { parseVerdict } from "./ai-check.ts";
import type { RespawnEvent } from "./types.ts";

/** How a child process ended. */
export interface ChildOutcome {
  /** Its exit code (null when killed). */
  code: number | null;
  /** What it printed. */
  stdout: string;
  stderr: string;
  /** It ran past its timeout and was killed. */
  timedOut: boolean;
}

/** `ctx finalize` succeeded when it exited 0 and its last line is the summary's absolute path. */
export function finalizeDone(r: ChildOutcome): Extract<RespawnEvent, { type: "finalize_done" }> {
  const path = r.stdout.trim().split("\n").pop()?.trim() ?? "";
  if (r.timedOut) return { type: "finalize_done", ok: false, detail: "timed out" };
  if (r.code !== 0 || !path.startsWith("/")) {
    const detail = `exit ${r.code}: ${r.stderr.trim().split("\n").pop() ?? ""}`.slice(0, 300);
    return { type: "finalize_done", ok: false, detail };
  }
  return { type: "finalize_done", ok: true, summaryPath: path };
}

/** The AI check's verdict; a timeout, a failed exit or an answer without a verdict is an `error` with the reason. */
export function aiVerdict(r: ChildOutcome): Extract<RespawnEvent, { type: "ai_verdict" }> {
  if (r.timedOut) return { type: "ai_verdict", verdict: "error", detail: "timeout" };
  if (r.code !== 0) return { type: "ai_verdict", verdict: "error", detail: `exit ${r.code}` };
  const verdict = parseVerdict(r.stdout);
  return verdict === "error"
    ? { type: "ai_verdict", verdict, detail: `no verdict in: ${r.stdout.trim().slice(0, 80)}` }
    : { type: "ai_verdict", verdict };
}
