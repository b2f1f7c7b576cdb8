/**
 * The usage limit as `claude -p --output-format json` reports it, and how long `ctx run` waits for
 * it. Pure. A stop-gap of `ctx run`'s own, behind `headlessLimit`: the shared reset-time parser of
 * issue 22 (the usage-limit detection for `ctx respawn`) replaces `parseReset` when it lands.
 */

/** A usage limit a leg ran into. */
export interface LimitHit {
  /** When the limit resets (ms since the epoch), when the client said so. */
  resetsAt?: number;
  /** The client's text, e.g. `You've hit your session limit · resets 3:03pm (UTC)`. */
  text: string;
}

/**
 * The usage limit in a headless result (`api_error_status: 429`, or a `rate_limit` error), with
 * the reset time read from its text relative to `now`; undefined when the result is no limit.
 */
export function headlessLimit(result: unknown, now: number): LimitHit | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const r = result as Record<string, unknown>;
  const text = typeof r.result === "string" ? r.result : "";
  const limited = r.api_error_status === 429 || r.error === "rate_limit" || /hit your [\w -]{0,40}limit/i.test(text);
  if (!limited) return undefined;
  return { resetsAt: parseReset(text, now), text: text.slice(0, 300) };
}

/**
 * The reset time in a limit message: `resets 3:03pm (UTC)`, `resets 8pm (America/New_York)`, or a
 * dated `resets Dec 3, 3pm (Europe/Paris)`. A time of day is the next one at or after `now` (less
 * ten minutes, as the client shows the minute); no time or an unknown zone gives undefined.
 */
export function parseReset(text: string, now: number): number | undefined {
  const m =
    /resets\s+(?:(?:at\s+)?([A-Z][a-z]{2})\s+(\d{1,2}),?\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)\s*(?:\(([^)]+)\))?/i.exec(
      text,
    );
  if (!m) return undefined;
  const zone = (m[6] ?? "UTC").trim();
  let hour = Number(m[3]) % 12;
  if (m[5]!.toLowerCase() === "pm") hour += 12;
  const minute = Number(m[4] ?? 0);
  if (hour > 23 || minute > 59) return undefined;
  const today = datePartsIn(now, zone);
  if (!today) return undefined;
  if (m[1]) {
    const month = MONTHS.indexOf(m[1].toLowerCase());
    if (month < 0) return undefined;
    let at = zonedToUtc(today.year, month, Number(m[2]), hour, minute, zone);
    if (at < now - 180 * DAY) at = zonedToUtc(today.year + 1, month, Number(m[2]), hour, minute, zone);
    return at;
  }
  const at = zonedToUtc(today.year, today.month, today.day, hour, minute, zone);
  return at >= now - 10 * 60_000 ? at : zonedToUtc(today.year, today.month, today.day + 1, hour, minute, zone);
}

/**
 * How long to wait at a limit: until the reset plus `marginMs`; when the reset shown (to the minute)
 * is already due, the margin, and without a reset time `backoffMs`, each doubled with every limit in
 * a row (`attempt` 0, 1, …), at most an hour.
 */
export function limitWaitMs(hit: LimitHit, now: number, attempt: number, marginMs: number, backoffMs: number): number {
  if (hit.resetsAt !== undefined && hit.resetsAt > now) return hit.resetsAt - now + marginMs;
  const base = Math.max(1000, hit.resetsAt !== undefined ? marginMs : backoffMs);
  return Math.min(HOUR, base * 2 ** Math.min(attempt, 20));
}

// --- internal ---

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

interface DateParts {
  year: number;
  /** 0-based. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock date and time of `ms` in `zone`, or undefined for a zone Intl does not know. */
function datePartsIn(ms: number, zone: string): DateParts | undefined {
  let f: Intl.DateTimeFormat;
  try {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    return undefined;
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  return {
    year: p.year!,
    month: p.month! - 1,
    day: p.day!,
    hour: p.hour! % 24,
    minute: p.minute!,
    second: p.second!,
  };
}

/** The instant whose wall-clock time in `zone` is the given one (the zone's offset found in two steps, DST included). */
function zonedToUtc(year: number, month: number, day: number, hour: number, minute: number, zone: string): number {
  const wall = Date.UTC(year, month, day, hour, minute);
  let at = wall;
  for (let i = 0; i < 2; i++) {
    const p = datePartsIn(at, zone)!;
    const offset = Date.UTC(p.year, p.month, p.day, p.hour, p.minute, p.second) - at;
    at = wall - offset;
  }
  return at;
}
