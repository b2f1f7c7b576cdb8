import { describe, expect, test } from "bun:test";
import { type HookReading, hookReading, observeHooks, startMemory, usagePct } from "../../../src/core/respawn/hooks.ts";

const reading = (over: Partial<HookReading> = {}): HookReading => ({
  session_id: "s-1",
  used_pct: 70,
  updated_ms: 1000,
  last_stop_ms: null,
  transcript_path: "/t/s-1.jsonl",
  ...over,
});

describe("usagePct: which figure the supervisor acts on", () => {
  test.each([
    [88, 70, 88], // the transcript is the freshest
    [undefined, 70, 70], // no transcript figure: the hooks'
    [0, 70, 70], // a transcript without usage yet does not count
    [undefined, null, null], // neither: no reading
    [91, null, 91],
  ] as const)("transcript %p, hooks %p → %p", (t, h, want) => {
    expect(usagePct(t, h)).toBe(want);
  });
});

describe("observeHooks", () => {
  test("a Stop hook from before the supervisor started is spent; the first usage reading counts", () => {
    const h = reading({ last_stop_ms: 900 });
    const seen = observeHooks(startMemory(h), h, undefined, () => undefined);
    expect(seen.events).toEqual([{ type: "usage", pct: 70, at: 1000 }]);
    expect(seen.memory.sessionId).toBe("s-1");
  });

  test("a new Stop hook, then the transcript's figure at the newer of the two times", () => {
    const h = reading({ last_stop_ms: 1500 });
    const seen = observeHooks(startMemory(undefined), h, { key: "10:2000", mtime: 2000 }, () => 88);
    expect(seen.events).toEqual([
      { type: "stop_hook", at: 1500 },
      { type: "usage", pct: 88, at: 2000 },
    ]);
  });

  test("nothing changed: no events, and the transcript is not read again", () => {
    const h = reading();
    const first = observeHooks(startMemory(undefined), h, { key: "k", mtime: 1 }, () => 88);
    let asked = 0;
    const again = observeHooks(first.memory, h, { key: "k", mtime: 1 }, () => ++asked);
    expect(again.events).toEqual([]);
    expect(asked).toBe(0);
    const grown = observeHooks(first.memory, h, { key: "k2", mtime: 3000 }, () => 89);
    expect(grown.events).toEqual([{ type: "usage", pct: 89, at: 3000 }]);
  });

  test("no transcript path: the transcript is never asked; no figure at all: no usage event", () => {
    let asked = 0;
    const none = reading({ transcript_path: null, used_pct: null });
    expect(observeHooks(startMemory(undefined), none, undefined, () => ++asked).events).toEqual([]);
    expect(asked).toBe(0);
  });

  test("after /clear the new session is followed", () => {
    const m = observeHooks(startMemory(reading()), reading(), undefined, () => undefined).memory;
    const next = observeHooks(m, reading({ session_id: "s-2", used_pct: 5 }), undefined, () => undefined);
    expect(next.memory.sessionId).toBe("s-2");
    expect(next.events).toEqual([{ type: "usage", pct: 5, at: 1000 }]);
  });
});

describe("hookReading", () => {
  test("parses a session state; an unsafe id gives nothing", () => {
    expect(
      hookReading({ session_id: "s-1", used_tokens: 10, used_pct: 5, updated_at: "1970-01-01T00:00:01Z" }),
    ).toEqual({ session_id: "s-1", used_pct: 5, updated_ms: 1000, last_stop_ms: null, transcript_path: null });
    expect(hookReading({ session_id: "../x", used_tokens: 10, used_pct: 5 })).toBeUndefined();
    expect(hookReading("garbage")).toBeUndefined();
  });
});
