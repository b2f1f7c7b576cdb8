/**
 * Times read from files can come from a clock that was ahead (or be planted):
 * such a time must never make something look newest forever or never stale.
 */

/** How far ahead of now a time may be and still count (as now): ordinary clock jitter. */
export const FUTURE_SLACK_MS = 10 * 60_000;

/**
 * The newest plausible time of something that carries several times (a stamp
 * in its name, its mtime, an `updated_at`): the earliest of those not in the
 * future (a time up to FUTURE_SLACK_MS ahead counts as now), or 0 when every
 * one of them lies in the future or none is known (it then counts as oldest).
 */
export function plausibleMs(nowMs: number, ...times: (number | undefined)[]): number {
  let best: number | undefined;
  for (const t of times) {
    if (t === undefined || !Number.isFinite(t) || t > nowMs + FUTURE_SLACK_MS) continue;
    const clamped = Math.min(t, nowMs);
    best = best === undefined ? clamped : Math.min(best, clamped);
  }
  return best ?? 0;
}
