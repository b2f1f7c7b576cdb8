/**
 * The plan's usage windows as the status-line payload carries them (`rate_limits`: `five_hour`,
 * `seven_day`, `spend_limit` behind gateways; `used_percentage`, `resets_at`): read, shown
 * (`5h 82% · resets 15:00`), and the checkpoint they call for (`limits.checkpoint_at`). Pure.
 */
import { clockTime } from "./limit-time.ts";
import { asObject } from "./json.ts";
import { percentage } from "./usage.ts";

/** One usage window: how much of it is used and when it resets. */
export interface UsageWindow {
  /** Used share, 0-100. */
  usedPct: number;
  /** When it resets (ms since the epoch), null when not said. */
  resetsMs: number | null;
}

/** The windows a payload carried (each only when present). */
export interface RateLimits {
  fiveHour?: UsageWindow;
  sevenDay?: UsageWindow;
  /** A gateway's spend limit, with its dollars when the payload says them. */
  spend?: UsageWindow & { usedUsd?: number; limitUsd?: number };
}

/** The payload's `rate_limits`, or undefined when it has no usable window. */
export function parseRateLimits(raw: unknown): RateLimits | undefined {
  const o = asObject(raw);
  if (!o) return undefined;
  const out: RateLimits = {};
  const five = windowOf(o.five_hour);
  const seven = windowOf(o.seven_day);
  const spend = windowOf(o.spend_limit);
  if (five) out.fiveHour = five;
  if (seven) out.sevenDay = seven;
  if (spend) {
    const s = asObject(o.spend_limit)!;
    out.spend = { ...spend, ...dollars("usedUsd", s.used_usd), ...dollars("limitUsd", s.limit_usd) };
  }
  return Object.keys(out).length ? out : undefined;
}

/** `5h 82% · resets 15:00` (the 5-hour window, else the spend limit, else the 7-day one), in local time. */
export function rateLimitText(r: RateLimits, zone?: string): string | undefined {
  const parts: string[] = [];
  const one = (label: string, w: UsageWindow) =>
    `${label} ${Math.round(w.usedPct)}%${w.resetsMs === null ? "" : ` · resets ${clockTime(w.resetsMs, zone)}`}`;
  if (r.fiveHour) parts.push(one("5h", r.fiveHour));
  if (r.spend) parts.push(one("spend", r.spend));
  // the 7-day window matters once it is the nearer wall
  if (r.sevenDay && (!r.fiveHour || r.sevenDay.usedPct >= r.fiveHour.usedPct)) parts.push(one("7d", r.sevenDay));
  return parts.length ? parts.join(" · ") : undefined;
}

/**
 * The 5-hour window when it is at or past `checkpointAt` % and has not reset by `nowMs`: time to checkpoint,
 * and no cycle or leg should start before its reset. Undefined otherwise (or with the checkpoint off).
 */
export function nearReset(
  r: RateLimits | undefined,
  checkpointAt: number | false,
  nowMs: number,
): UsageWindow | undefined {
  const w = r?.fiveHour;
  if (!w || checkpointAt === false || w.usedPct < checkpointAt) return undefined;
  return w.resetsMs !== null && w.resetsMs <= nowMs ? undefined : w;
}

/** What the agent is told, once per 5-hour window, at `limits.checkpoint_at`. */
export function checkpointText(w: UsageWindow, zone?: string): string {
  const resets = w.resetsMs === null ? "" : ` (it resets at ${clockTime(w.resetsMs, zone)})`;
  return (
    `USAGE CHECKPOINT: ${Math.round(w.usedPct)}% of the 5-hour usage window is used${resets}. ` +
    "Checkpoint now: finish or park the current step, commit or save your changes, and update the task list " +
    "and your notes with exactly what remains, so the work continues cleanly if the limit stops this session."
  );
}

/** What a supervisor or a chain says while it waits for the reset instead of starting what it could not finish. */
export function waitText(what: string, w: UsageWindow, zone?: string): string {
  const at = w.resetsMs === null ? "its reset" : clockTime(w.resetsMs, zone);
  return `waiting for the 5-hour usage window to reset at ${at} (${Math.round(w.usedPct)}% used): a ${what} started now could not finish before it`;
}

// --- internal ---

function windowOf(raw: unknown): UsageWindow | undefined {
  const o = asObject(raw);
  const used = o ? percentage(o.used_percentage) : undefined;
  if (used === undefined) return undefined;
  return { usedPct: used, resetsMs: resetOf(o!.resets_at) };
}

/** `resets_at` as epoch seconds, epoch ms or an ISO-8601 text; null when none of them. */
function resetOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v < 1e12 ? v * 1000 : v;
  if (typeof v === "string" && v !== "") {
    const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : Date.parse(v);
    return Number.isFinite(n) && n > 0 ? (n < 1e12 ? n * 1000 : n) : null;
  }
  return null;
}

function dollars(key: "usedUsd" | "limitUsd", v: unknown): Record<string, number> {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? { [key]: v } : {};
}
