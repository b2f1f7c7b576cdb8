/**
 * The reset time in a usage-limit message, as Claude Code writes it: `resets 3:03pm (UTC)`,
 * `resets 8pm (America/New_York)` within a day, `resets Dec 3, 3pm (Europe/Berlin)` beyond
 * (`Jan 2, 2027, 3:30pm (…)` in another year), always in the user's IANA zone. Read with Intl
 * only, correct across daylight-saving changes. Pure: the reference time is an argument.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const SP = String.raw`[\s\u00a0\u202f]*`;
/** `resets [Mon D[, YYYY](, | at )]H[:MM]am (Zone)`. */
const RESET = new RegExp(
  String.raw`resets\s+(?:([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2})(?:,\s*(\d{4}))?(?:,\s*|\s+at\s+))?` +
    String.raw`(\d{1,2})(?::(\d{2}))?${SP}([ap])\.?m\.?${SP}\(([A-Za-z][A-Za-z0-9_+\-/]*)\)`,
  "i",
);

/** A time of day without a date is read as the first such time from this long before the message was seen. */
const PAST_SLACK_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The reset instant (ms since the epoch) a limit message names, or null when it names none or an
 * unknown zone. `seenAt` is when the message appeared (it settles the day and the year the text leaves out).
 */
export function parseResetTime(text: string, seenAt: number): number | null {
  const m = RESET.exec(text);
  if (!m) return null;
  const zone = m[7]!;
  if (!validZone(zone)) return null;
  let hour = Number(m[4]) % 12;
  if (m[6]!.toLowerCase() === "p") hour += 12;
  const minute = m[5] ? Number(m[5]) : 0;
  if (Number(m[4]) > 12 || minute > 59) return null;
  const today = wallParts(seenAt, zone);
  if (m[1]) {
    const month = MONTHS.indexOf(m[1].toLowerCase());
    const day = Number(m[2]);
    if (month < 0 || day < 1 || day > 31) return null;
    if (m[3]) return zonedTime(Number(m[3]), month, day, hour, minute, zone);
    const t = zonedTime(today.year, month, day, hour, minute, zone);
    return t < seenAt - DAY_MS ? zonedTime(today.year + 1, month, day, hour, minute, zone) : t;
  }
  for (let add = 0; add <= 2; add++) {
    // Day arithmetic on the civil date (Date.UTC normalises the 32nd): never a fixed 24 h across a DST change.
    const d = new Date(Date.UTC(today.year, today.month, today.day + add));
    const t = zonedTime(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute, zone);
    if (t >= seenAt - PAST_SLACK_MS) return t;
  }
  return null;
}

/** The instant of a wall-clock time in an IANA zone (month 0-11). A time skipped by DST moves forward by the gap; a repeated one is the first. */
export function zonedTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
): number {
  const guess = Date.UTC(year, month, day, hour, minute);
  // The offsets a day before and after cover any change in between; the one in force is the one that reads back.
  const before = guess - offsetMs(guess - DAY_MS, zone);
  const after = guess - offsetMs(guess + DAY_MS, zone);
  const ok = [before, after].filter((t) => t + offsetMs(t, zone) === guess).sort((a, b) => a - b);
  // None reads back: the wall time falls in a spring-forward gap; the offset before it moves it on by the gap.
  return ok[0] ?? before;
}

/** True when Intl knows the IANA zone. */
export function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `HH:MM` of an instant in a zone (the user's, when none is given), 24-hour. */
export function clockTime(at: number, zone?: string): string {
  const p = wallParts(at, zone);
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
}

// --- internal ---

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function wallParts(at: number, zone?: string): Wall {
  const key = zone ?? "";
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      ...(zone ? { timeZone: zone } : {}),
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(key, f);
  }
  const v: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(at))) if (p.type !== "literal") v[p.type] = Number(p.value);
  return { year: v.year!, month: v.month! - 1, day: v.day!, hour: v.hour! % 24, minute: v.minute! };
}

/** The zone's offset from UTC at an instant (wall − UTC), in ms, to the minute. */
function offsetMs(at: number, zone: string): number {
  const w = wallParts(at, zone);
  const wall = Date.UTC(w.year, w.month, w.day, w.hour, w.minute);
  return wall - Math.floor(at / 60_000) * 60_000;
}
