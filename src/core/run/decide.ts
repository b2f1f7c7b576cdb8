/**
 * The decisions of `ctx run` between legs: how a leg ended (from `claude -p`'s exit and JSON
 * result) and what comes next (done, another leg, a wait at a usage limit, a brake). Pure.
 */
import { NO_PROGRESS_LIMIT } from "../respawn/brakes.ts";
import { headlessLimit, limitWaitMs, type LimitHit } from "./limit.ts";

/** How one leg ended. */
export type LegEnd =
  /** The client finished the task on its own (exit 0, the last turn was not cut). */
  | { kind: "finished"; result: string }
  /** ctx's monitor ended it at the restart level (exit 0, the turn stopped after a tool call). */
  | { kind: "stopped" }
  /** The usage limit. */
  | { kind: "limit"; hit: LimitHit }
  /** ctx ended it at a brake while it ran (--max-time): not a failure of the leg. */
  | { kind: "brake"; detail: string }
  /** Anything else: a non-zero exit, an error result, no result. */
  | { kind: "failed"; detail: string };

/** One leg as the run records it. */
export interface LegRecord {
  /** 1-based. */
  n: number;
  end: LegEnd;
  /** Tool calls the leg made (from its session state). */
  toolCalls: number;
}

/** What the run knows between legs. */
export interface RunProgress {
  startedAt: number;
  legs: LegRecord[];
  /** Usage limits in a row (reset by a leg that ends otherwise). */
  limitsInARow: number;
  /** Legs in a row that were ended at the restart level after at most one tool call. */
  noProgress: number;
}

/** The run's limits, from its options. */
export interface RunLimits {
  maxLegs: number;
  maxTimeMs: number;
  maxLimitWaitMs: number;
  limitMarginMs: number;
  /** The first wait at a limit without a reset time (doubles each time). */
  backoffMs: number;
}

/** What to do after a leg. */
export type Next =
  | { type: "done" }
  | { type: "failed"; detail: string }
  /** Start another leg: from the summary of this one (`finalize`), or again from the same prompt. */
  | { type: "leg"; finalize: boolean }
  /** Wait at a usage limit, then start another leg. */
  | { type: "wait"; ms: number; finalize: boolean }
  | { type: "brake"; name: "max_legs" | "max_time" | "no_progress"; message: string }
  | { type: "limit_gave_up"; message: string };

/** The exit codes of `ctx run` (docs/run.md). */
export const RUN_EXIT = { done: 0, failed: 1, usage: 2, brake: 3, limit: 4 } as const;

/** How a leg ended, from the client's exit code and stdout (`--output-format json`). */
export function classifyLeg(code: number | null, stdout: string, now: number): LegEnd {
  const result = lastJson(stdout);
  const hit = headlessLimit(result, now);
  if (hit) return { kind: "limit", hit };
  if (code !== 0 || !result) {
    const why = typeof result?.result === "string" && result.result ? `: ${result.result.slice(0, 200)}` : "";
    return { kind: "failed", detail: `claude exited ${code ?? "on a signal"}${why}` };
  }
  if (result.is_error === true) return { kind: "failed", detail: `claude reported ${String(result.subtype)}` };
  if (result.stop_reason === "tool_use") return { kind: "stopped" };
  return { kind: "finished", result: typeof result.result === "string" ? result.result : "" };
}

/** What follows `leg` (already in `p.legs`) at `now`, and the progress counters after it. */
export function nextAfter(
  p: RunProgress,
  leg: LegRecord,
  now: number,
  limits: RunLimits,
): { next: Next; p: RunProgress } {
  const end = leg.end;
  if (end.kind === "finished") return { next: { type: "done" }, p };
  if (end.kind === "failed") return { next: { type: "failed", detail: end.detail }, p };
  if (end.kind === "brake") return { next: { type: "brake", name: "max_time", message: end.detail }, p };
  const elapsed = now - p.startedAt;
  if (end.kind === "limit") {
    const ms = limitWaitMs(end.hit, now, p.limitsInARow, limits.limitMarginMs, limits.backoffMs);
    const q = { ...p, limitsInARow: p.limitsInARow + 1 };
    if (ms > limits.maxLimitWaitMs)
      return {
        next: { type: "limit_gave_up", message: `the limit needs a wait of ${secs(ms)}, past --max-limit-wait` },
        p: q,
      };
    if (elapsed + ms >= limits.maxTimeMs) return { next: brake("max_time", elapsed + ms, limits), p: q };
    return { next: { type: "wait", ms, finalize: leg.toolCalls > 0 }, p: q };
  }
  const noProgress = leg.toolCalls <= 1 ? p.noProgress + 1 : 0;
  const q = { ...p, limitsInARow: 0, noProgress };
  if (noProgress >= NO_PROGRESS_LIMIT)
    return {
      next: {
        type: "brake",
        name: "no_progress",
        message: `${noProgress} legs in a row reached the restart level by their first tool call; reduce what a leg loads at start (CLAUDE.md, the summary) or raise --restart-at`,
      },
      p: q,
    };
  if (legCount(p) >= limits.maxLegs) return { next: brake("max_legs", elapsed, limits), p: q };
  if (elapsed >= limits.maxTimeMs) return { next: brake("max_time", elapsed, limits), p: q };
  return { next: { type: "leg", finalize: true }, p: q };
}

/** Legs that count against --max-legs: those not ended by a usage limit. */
export function legCount(p: RunProgress): number {
  return p.legs.filter((l) => l.end.kind !== "limit").length;
}

// --- internal ---

function brake(name: "max_legs" | "max_time", elapsedMs: number, limits: RunLimits): Next {
  const message =
    name === "max_legs"
      ? `${limits.maxLegs} legs done and the task is not finished (--max-legs)`
      : `${secs(elapsedMs)} would pass the wall time of ${secs(limits.maxTimeMs)} (--max-time)`;
  return { type: "brake", name, message };
}

function secs(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/** The last line of `text` that parses as a JSON object (the client prints one; warnings may precede it). */
function lastJson(text: string): Record<string, unknown> | undefined {
  const lines = text.trim().split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith("{")) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // not this line
    }
  }
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
