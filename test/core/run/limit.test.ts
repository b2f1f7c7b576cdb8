/** ctx run's reading of the headless usage limit's reset time (the shared parser, core/limit.ts) and its wait. */
import { describe, expect, test } from "bun:test";
import { headlessLimit, limitWaitMs, parseReset } from "../../../src/core/run/limit.ts";

const at = (iso: string) => Date.parse(iso);

describe("parseReset", () => {
  test("a time of day in UTC, later today", () => {
    expect(parseReset("You've hit your session limit · resets 3:03pm (UTC)", at("2026-12-01T14:50:00Z"))).toBe(
      at("2026-12-01T15:03:00Z"),
    );
  });
  test("an hour without minutes, in another zone (EST in December)", () => {
    expect(parseReset("resets 8pm (America/New_York)", at("2026-12-01T20:00:00Z"))).toBe(at("2026-12-02T01:00:00Z"));
  });
  test("across DST: the same wall time is an hour apart in UTC in summer and winter", () => {
    const summer = parseReset("resets 9am (Europe/Berlin)", at("2026-07-01T05:00:00Z"));
    const winter = parseReset("resets 9am (Europe/Berlin)", at("2026-12-01T05:00:00Z"));
    expect(summer).toBe(at("2026-07-01T07:00:00Z"));
    expect(winter).toBe(at("2026-12-01T08:00:00Z"));
  });
  test("a time already past (more than the shown minute) is tomorrow's", () => {
    expect(parseReset("resets 1:00am (UTC)", at("2026-12-01T14:00:00Z"))).toBe(at("2026-12-02T01:00:00Z"));
  });
  test("the minute just passed stays today (the client shows the minute)", () => {
    expect(parseReset("resets 2:51pm (UTC)", at("2026-12-01T14:51:30Z"))).toBe(at("2026-12-01T14:51:00Z"));
  });
  test("a dated reset (the weekly limit)", () => {
    expect(
      parseReset("You've hit your weekly limit · resets Dec 3, 5pm (Asia/Tokyo)", at("2026-12-01T00:00:00Z")),
    ).toBe(at("2026-12-03T08:00:00Z"));
  });
  test("no time, or a zone Intl does not know, gives nothing", () => {
    expect(parseReset("API Error: Request rejected (429)", at("2026-12-01T00:00:00Z"))).toBeUndefined();
    expect(parseReset("resets 3pm (Mars/Olympus)", at("2026-12-01T00:00:00Z"))).toBeUndefined();
  });
});

describe("headlessLimit and the wait", () => {
  test("only a limit result is a limit", () => {
    expect(headlessLimit({ is_error: false, result: "done" }, 0)).toBeUndefined();
    expect(headlessLimit(null, 0)).toBeUndefined();
    expect(headlessLimit({ api_error_status: 429, result: "x" }, 0)).toEqual({ resetsAt: undefined, text: "x" });
  });
  test("a future reset: until it plus the margin; a reset already due: the margin, doubling", () => {
    const now = at("2026-12-01T14:50:00Z");
    expect(limitWaitMs({ resetsAt: now + 5000, text: "" }, now, 0, 1000, 60_000)).toBe(6000);
    expect(limitWaitMs({ resetsAt: now - 5000, text: "" }, now, 0, 1000, 60_000)).toBe(1000);
    expect(limitWaitMs({ resetsAt: now - 5000, text: "" }, now, 2, 1000, 60_000)).toBe(4000);
    expect(limitWaitMs({ text: "" }, now, 10, 1000, 60_000)).toBe(3_600_000);
  });
});
