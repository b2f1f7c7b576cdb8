import { describe, expect, test } from "bun:test";
import { initialState } from "../../../src/core/respawn/machine.ts";
import {
  appendEvent,
  buildRecord,
  HEARTBEAT_MS,
  indexRespawn,
  MAX_EVENTS,
  parseRecord,
  recordDue,
  type RespawnLogEntry,
  statusChanged,
} from "../../../src/core/respawn/record.ts";
import { settings } from "./sim.ts";

const who = {
  name: "w",
  pid: 42,
  target: "%3",
  project: "/p",
  root: "/p/.ctx",
  started_at: "2026-01-01T00:00:00.000Z",
};

describe("the supervisor's record", () => {
  test("carries the phase, cycles, reason, brake, session, usage and the whole machine state", () => {
    const s = { ...initialState(settings(), 1000), phase: "idle" as const, cycles: 2, usage: { pct: 81, at: 900 } };
    const events: RespawnLogEntry[] = [{ at: "2026-01-01T00:00:01.000Z", event: "idle", detail: "stop_hook" }];
    const rec = buildRecord(who, s, "s-1", events, "2026-01-01T00:00:02.000Z");
    expect(rec).toEqual({
      version: 1,
      ...who,
      phase: "idle",
      cycles: 2,
      reason: null,
      brake: null,
      session_id: "s-1",
      used_pct: 81,
      updated_at: "2026-01-01T00:00:02.000Z",
      events,
      machine: s,
    });
    expect(Object.keys(rec).slice(0, 8)).toEqual([
      "version",
      "name",
      "pid",
      "target",
      "project",
      "root",
      "phase",
      "cycles",
    ]);
    expect(indexRespawn(rec, "/p/.ctx/state/respawn/w.json")).toEqual({
      name: "w",
      state: "idle",
      cycles: 2,
      reason: null,
      state_path: "/p/.ctx/state/respawn/w.json",
      updated_at: "2026-01-01T00:00:02.000Z",
    });
  });

  test("keeps the newest 50 events, oldest first", () => {
    let events: RespawnLogEntry[] = [];
    for (let i = 0; i < MAX_EVENTS + 5; i++) events = appendEvent(events, { at: `${i}`, event: "tick" });
    expect(events).toHaveLength(MAX_EVENTS);
    expect(events[0]?.at).toBe("5");
    expect(events.at(-1)?.at).toBe(`${MAX_EVENTS + 4}`);
  });

  test("is written on a change of phase or cycles, when forced, and at least every 10 s", () => {
    const s = initialState(settings(), 0);
    expect(statusChanged(s, { ...s, phase: "idle" })).toBe(true);
    expect(statusChanged(s, { ...s, cycles: 1 })).toBe(true);
    expect(statusChanged(s, { ...s, lastChangeAt: 5 })).toBe(false);
    expect(recordDue(false, false, 5000, 0)).toBe(false);
    expect(recordDue(false, false, HEARTBEAT_MS, 0)).toBe(true);
    expect(recordDue(false, true, 1, 0)).toBe(true);
    expect(recordDue(true, false, 1, 0)).toBe(true);
  });
});

describe("parseRecord", () => {
  test("any object is a record, with its phase, pid and events narrowed; anything else is none", () => {
    expect(parseRecord({ name: "a", phase: "idle", pid: 42, events: [{ at: "t", event: "idle" }] })).toMatchObject({
      name: "a",
      phase: "idle",
      pid: 42,
      events: [{ at: "t", event: "idle" }],
    });
    const odd = parseRecord({ name: "b", phase: 3, pid: -1, events: [{ event: 1 }, null, { event: "x", detail: 2 }] });
    expect(odd as unknown).toEqual({ name: "b", phase: "", pid: 0, events: [{ at: "", event: "x" }] });
    expect(parseRecord({ pid: 1.5 })).toMatchObject({ pid: 0, events: [] });
    for (const v of [null, [], "x", 5]) expect(parseRecord(v)).toBeUndefined();
  });
});
