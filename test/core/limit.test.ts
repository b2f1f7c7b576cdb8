import { describe, expect, test } from "bun:test";
import {
  clockTime,
  LIMIT_BACKOFF_MS,
  limitFromHook,
  limitFromResult,
  limitFromTranscriptLine,
  limitMessage,
  limitWaitUntil,
  parseResetTime,
  zonedTime,
} from "../../src/core/limit.ts";
import { limitFromPane } from "../../src/core/screen.ts";

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const at = (s: string) => Date.parse(s);

describe("parseResetTime: the forms the client writes", () => {
  const seen = at("2026-12-01T14:00:00Z");
  test.each([
    ["You've hit your session limit · resets 3:03pm (UTC)", "2026-12-01T15:03:00.000Z"],
    ["resets 8pm (America/New_York)", "2026-12-02T01:00:00.000Z"], // 20:00 EST = 01:00 UTC next day
    ["resets 12am (Asia/Kolkata)", "2026-12-01T18:30:00.000Z"], // midnight IST, +05:30
    ["resets 12pm (Pacific/Auckland)", "2026-12-01T23:00:00.000Z"], // noon NZDT (+13): already Dec 2 there
    ["You've hit your weekly limit · resets Dec 3, 3pm (Europe/Berlin)", "2026-12-03T14:00:00.000Z"],
    ["resets Dec 3 at 3:30pm (Europe/Berlin)", "2026-12-03T14:30:00.000Z"],
    ["resets Jan 2, 2027, 3:30pm (Asia/Tokyo)", "2027-01-02T06:30:00.000Z"],
    ["resets Jan 2, 9am (UTC)", "2027-01-02T09:00:00.000Z"], // no year: the next Jan 2
    ["resets 3:03\u202fPM (UTC)", "2026-12-01T15:03:00.000Z"], // ICU's narrow no-break space, upper case
  ])("%s", (text, want) => {
    expect(iso(parseResetTime(text, seen))).toBe(want);
  });

  test("a time of day already past is tomorrow's; one just past (the message read late) stays today's", () => {
    expect(iso(parseResetTime("resets 1pm (UTC)", seen))).toBe("2026-12-02T13:00:00.000Z");
    expect(iso(parseResetTime("resets 1:58pm (UTC)", seen))).toBe("2026-12-01T13:58:00.000Z");
  });

  test("no reset, an unknown zone or a bad time give null", () => {
    expect(parseResetTime("API Error: Request rejected (429) · rate limited", seen)).toBeNull();
    expect(parseResetTime("resets 3pm (Mars/Olympus_Mons)", seen)).toBeNull();
    expect(parseResetTime("resets 13pm (UTC)", seen)).toBeNull();
    expect(parseResetTime("resets 3:75pm (UTC)", seen)).toBeNull();
  });
});

describe("parseResetTime across daylight-saving changes", () => {
  test("New York, spring forward (2026-03-08): the offset after the change applies", () => {
    // Seen at 01:00 EST; 8pm that day is EDT (UTC-4).
    expect(iso(parseResetTime("resets 8pm (America/New_York)", at("2026-03-08T06:00:00Z")))).toBe(
      "2026-03-09T00:00:00.000Z",
    );
  });

  test("Berlin, fall back (2026-10-25): 9am is CET (UTC+1) though the message came in CEST", () => {
    expect(iso(parseResetTime("resets 9am (Europe/Berlin)", at("2026-10-24T22:30:00Z")))).toBe(
      "2026-10-25T08:00:00.000Z",
    );
  });

  test("tomorrow across the change is the calendar day, not 24 hours on", () => {
    // Seen 2026-03-07 23:00 EST; 10pm is already past, so Mar 8 10pm EDT, 23 hours later than a fixed day would say.
    expect(iso(parseResetTime("resets 10pm (America/New_York)", at("2026-03-08T04:00:00Z")))).toBe(
      "2026-03-09T02:00:00.000Z",
    );
  });

  test("a wall time in the spring gap moves on by the gap; a repeated one is its first occurrence", () => {
    expect(iso(zonedTime(2026, 2, 8, 2, 30, "America/New_York"))).toBe("2026-03-08T07:30:00.000Z"); // 03:30 EDT
    expect(iso(zonedTime(2026, 2, 29, 2, 30, "Europe/Berlin"))).toBe("2026-03-29T01:30:00.000Z"); // 03:30 CEST
    expect(iso(zonedTime(2026, 10, 1, 1, 30, "America/New_York"))).toBe("2026-11-01T05:30:00.000Z"); // EDT
    expect(iso(zonedTime(2026, 9, 25, 2, 30, "Europe/Berlin"))).toBe("2026-10-25T00:30:00.000Z"); // CEST
  });

  test("the southern hemisphere: Sydney's DST starts in October", () => {
    expect(iso(zonedTime(2026, 9, 3, 12, 0, "Australia/Sydney"))).toBe("2026-10-03T02:00:00.000Z"); // AEST +10
    expect(iso(zonedTime(2026, 9, 5, 12, 0, "Australia/Sydney"))).toBe("2026-10-05T01:00:00.000Z"); // AEDT +11
  });

  test("clockTime shows the instant in the given zone, 24-hour", () => {
    expect(clockTime(at("2026-12-01T15:03:00Z"), "UTC")).toBe("15:03");
    expect(clockTime(at("2026-07-01T15:03:00Z"), "Europe/Berlin")).toBe("17:03");
    expect(clockTime(at("2026-12-01T15:03:00Z"), "Europe/Berlin")).toBe("16:03");
  });
});

describe("recognising the limit in every source", () => {
  const msg = "You've hit your session limit · resets 3:03pm (UTC)";
  const t = at("2026-12-01T14:02:00Z");

  test("the StopFailure hook", () => {
    const hook = { hook_event_name: "StopFailure", error: "rate_limit", last_assistant_message: msg, session_id: "s" };
    expect(limitFromHook(hook, t)).toEqual({ message: msg, at: t, resetsAt: at("2026-12-01T15:03:00Z") });
    expect(limitFromHook({ ...hook, error: "server_error" }, t)).toBeUndefined();
    expect(limitFromHook({ ...hook, hook_event_name: "Stop" }, t)).toBeUndefined();
  });

  test("the transcript's API error line", () => {
    const line = {
      type: "assistant",
      timestamp: "2026-12-01T14:02:00.000Z",
      isApiErrorMessage: true,
      error: "rate_limit",
      message: { role: "assistant", content: [{ type: "text", text: msg }] },
    };
    expect(limitFromTranscriptLine(line)?.resetsAt).toBe(at("2026-12-01T15:03:00Z"));
    expect(limitFromTranscriptLine({ ...line, isApiErrorMessage: false })).toBeUndefined();
  });

  test("the headless result, and an API key's 429 without a reset", () => {
    expect(limitFromResult({ is_error: true, api_error_status: 429, result: msg }, t)?.message).toBe(msg);
    const key = limitFromResult(
      { is_error: true, api_error_status: 429, result: "API Error: Request rejected (429) · x" },
      t,
    );
    expect(key).toEqual({ message: "API Error: Request rejected (429)", at: t, resetsAt: null });
    expect(limitFromResult({ is_error: true, api_error_status: 500, result: msg }, t)).toBeUndefined();
  });

  test("the pane: the newest limit line and the menu", () => {
    const pane = [
      "❯ go on",
      "  ⎿  You've hit your session limit · resets 2:03pm (UTC)",
      "  ⎿  You've hit your session limit · resets 3:03pm (UTC)",
      "❯ /rate-limit-options",
      "─".repeat(60),
      " What do you want to do?",
      " ❯ 1. Stop and wait for limit to reset",
      "   2. Upgrade your plan",
    ].join("\n");
    expect(limitFromPane(pane)).toEqual({ message: msg, menu: true, notice: false });
    expect(limitFromPane("● All done.\n❯ ")).toEqual({ menu: false, notice: false });
    // 2.1.328: no menu; a notice that it will go on by itself.
    const newer = [
      "  ⎿  You've hit your 5-hour limit · resets 4:01pm (Europe/Berlin)",
      "● Usage limit reached · continuing automatically at 4:01pm · esc to cancel",
      "─".repeat(60),
      "❯ ",
      "─".repeat(60),
      "  ⚠ Usage limit reached · limit resets 4:01pm",
    ].join("\n");
    expect(limitFromPane(newer)).toEqual({
      message: "You've hit your 5-hour limit · resets 4:01pm (Europe/Berlin)",
      menu: false,
      notice: true,
    });
    // 2.1.332 (its pane, observed): the conversation says "set to continue automatically"; below the
    // input box the band keeps "limit resets" and "Continuing automatically at … · Esc to cancel".
    const newest = [
      "  ⎿  You've hit your 5-hour limit · resets 12:03am (Europe/Berlin)",
      "● Usage limit reached · set to continue automatically at 12:03am",
      "─".repeat(60),
      "❯ ",
      "─".repeat(60),
      "  ⚠ Usage limit reached · limit resets 12:03am",
      "    Continuing automatically at 12:03am · Esc to cancel",
    ].join("\n");
    expect(limitFromPane(newest)).toEqual({
      message: "You've hit your 5-hour limit · resets 12:03am (Europe/Berlin)",
      menu: false,
      notice: true,
    });
    expect(limitMessage("You've reached your Opus limit")).toBe("You've reached your Opus limit");
  });
});

describe("when to try again", () => {
  const seen = 1_000_000;
  test("the reset plus the margin; a repeat waits at least its back-off step", () => {
    const l = { message: "m", at: seen, resetsAt: seen + 60_000 };
    expect(limitWaitUntil(l, 1, 30_000)).toBe(seen + 90_000);
    expect(limitWaitUntil(l, 2, 30_000)).toBe(seen + LIMIT_BACKOFF_MS[0]!);
    expect(limitWaitUntil({ ...l, resetsAt: seen + 3_600_000 }, 2, 0)).toBe(seen + 3_600_000);
  });

  test("without a reset time: 5, 10, 20, 40, then 60 minutes", () => {
    const l = { message: "API Error: Request rejected (429)", at: seen, resetsAt: null };
    const waits = [1, 2, 3, 4, 5, 9].map((n) => (limitWaitUntil(l, n, 30_000) - seen) / 60_000);
    expect(waits).toEqual([5, 10, 20, 40, 60, 60]);
  });
});
