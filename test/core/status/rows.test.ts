import { describe, expect, test } from "bun:test";
import { parseIndexEntry } from "../../../src/core/status/entry.ts";
import {
  filterRows,
  levelOf,
  respawnState,
  toRow,
  uniqueLabels,
  type StatusRow,
} from "../../../src/core/status/rows.ts";

const NOW = Date.parse("2025-01-02T12:00:00Z");
const T = { warning: 65, critical: 75, auto_pause: 90 } as const;
const entry = (sid: string, over: Record<string, unknown> = {}) =>
  parseIndexEntry({
    version: 1,
    session_id: sid,
    project: "/work/app",
    root: "/work/app/.ctx",
    state_path: `/work/app/.ctx/state/sessions/${sid}.json`,
    model: "claude-sonnet-4-5",
    used_pct: 50,
    used_tokens: 100000,
    window_size: 200000,
    threshold_reached: null,
    auto_pause_active: false,
    respawn: null,
    updated_at: new Date(NOW - 30_000).toISOString(),
    ...over,
  })!;
const row = (sid: string, over: Record<string, unknown> = {}, ended = false) =>
  toRow(entry(sid, over), NOW, 3600, T, ended);

describe("parseIndexEntry", () => {
  test("reads the documented entry", () => {
    const e = entry("s1");
    expect(e).toMatchObject({
      session_id: "s1",
      project: "/work/app",
      used_pct: 50,
      used_tokens: 100000,
      window_size: 200000,
      threshold_reached: null,
    });
    expect(e.updated_ms).toBe(NOW - 30_000);
  });
  test.each([
    ["no session id", { session_id: undefined }],
    ["an unsafe session id", { session_id: "../x" }],
  ])("rejects %s", (_n, over) => {
    expect(parseIndexEntry({ ...entry("s1"), ...over })).toBeUndefined();
  });
  test("rejects an entry whose id differs from its file name", () => {
    expect(parseIndexEntry({ session_id: "a" }, "b")).toBeUndefined();
  });
  test("wrong types become unknowns, not crashes", () => {
    const e = parseIndexEntry({ session_id: "s", used_pct: "90", model: 4, updated_at: "yesterday" })!;
    expect(e).toMatchObject({ used_pct: null, model: "", threshold_reached: undefined });
    expect(Number.isNaN(e.updated_ms)).toBe(true);
  });
});

describe("toRow", () => {
  test("carries the figures, the age in seconds, and is live when recent", () => {
    expect(row("s1")).toMatchObject({
      session_id: "s1",
      used_pct: 50,
      level: "ok",
      age_s: 30,
      stale: false,
      ended: false,
      respawn: null,
    });
  });
  test.each([
    ["updated past status.stale_after_s", { updated_at: new Date(NOW - 3601_000).toISOString() }, false, true],
    ["updated exactly at the limit", { updated_at: new Date(NOW - 3600_000).toISOString() }, false, false],
    ["without an update time", { updated_at: "" }, false, true],
    ["ended: never stale (it did not stop reporting, it ended)", {}, true, false],
    ["ended long ago: still not stale", { updated_at: new Date(NOW - 9000_000).toISOString() }, true, false],
  ])("stale when %s", (_n, over, ended, stale) => {
    expect(row("s1", over, ended).stale).toBe(stale);
  });
  test("an ended session is shown for status.ended_visible_s, then hidden unless --all", () => {
    const at = (ageS: number) =>
      toRow(entry("e", { updated_at: new Date(NOW - ageS * 1000).toISOString() }), NOW, 3600, T, true, undefined, 600);
    expect(at(8)).toMatchObject({ ended: true, ended_long_ago: false, stale: false });
    expect(filterRows([at(8)], { all: false })).toMatchObject({ hiddenStale: 0, hiddenEnded: 0 });
    expect(at(601).ended_long_ago).toBe(true);
    expect(filterRows([at(601)], { all: false })).toMatchObject({ rows: [], hiddenStale: 0, hiddenEnded: 1 });
    expect(filterRows([at(601)], { all: true }).rows).toHaveLength(1);
  });
  test("one model, one name: a dated id is the same model", () => {
    expect(row("s1", { model: "claude-sonnet-4-5-20250929" }).model).toBe("claude-sonnet-4-5");
  });
  test("an update time in the future counts as age 0", () => {
    expect(row("s1", { updated_at: new Date(NOW + 5000).toISOString() }).age_s).toBe(0);
  });
});

describe("levelOf", () => {
  test.each([
    ["the entry's own level", "auto_pause", 40, "auto_pause"],
    ["null means below warning", null, 99, "ok"],
    ["unknown level: from used %", "weird", 96, "auto_pause"],
    ["an old entry's caution: from used %", "caution", 76, "critical"],
    ["missing: from used % (warning)", undefined, 66, "warning"],
    ["missing: from used % (critical)", undefined, 75, "critical"],
    ["missing and no usage", undefined, null, "ok"],
  ] as const)("%s", (_n, thr, pct, want) => {
    expect(levelOf({ threshold_reached: thr, used_pct: pct }, T)).toBe(want);
  });
  test("a threshold set off is skipped", () => {
    expect(levelOf({ threshold_reached: undefined, used_pct: 89 }, { ...T, critical: false })).toBe("warning");
  });
});

describe("respawnState", () => {
  test.each([
    [null, null],
    [undefined, null],
    [false, null],
    ["", null],
    ["watching", "watching"],
    [{ state: "cycling" }, "cycling"],
    [{ status: "idle" }, "idle"],
    [{ pid: 3 }, "on"],
    [[1], "on"],
  ])("%j → %p", (v, want) => {
    expect(respawnState(v)).toBe(want);
  });
});

describe("filterRows", () => {
  const rows: StatusRow[] = [
    row("low", { used_pct: 20 }),
    row("high", { used_pct: 91, project: "/work/api" }),
    row("mid", { used_pct: 80, project: "/work/app/sub" }),
    row("stale", { used_pct: 99, updated_at: "2024-01-01T00:00:00Z" }),
    row("nousage", { used_pct: null }),
  ];
  const ids = (f: Parameters<typeof filterRows>[1]) => filterRows(rows, f);
  test("hides stale sessions and counts them; highest usage first", () => {
    const r = ids({ all: false });
    expect(r.rows.map((x) => x.session_id)).toEqual(["high", "mid", "low", "nousage"]);
    expect(r.hiddenStale).toBe(1);
  });
  test("--all shows stale ones last", () => {
    const r = ids({ all: true });
    expect(r.rows.map((x) => x.session_id)).toEqual(["high", "mid", "low", "nousage", "stale"]);
    expect(r.hiddenStale).toBe(0);
  });
  test("--min keeps sessions at or above the percentage, none without usage", () => {
    expect(ids({ all: true, minPct: 80 }).rows.map((x) => x.session_id)).toEqual(["high", "mid", "stale"]);
    expect(ids({ all: false, minPct: 91 }).rows.map((x) => x.session_id)).toEqual(["high"]);
  });
  test("--min does not count stale sessions it filtered out anyway", () => {
    expect(ids({ all: false, minPct: 100 }).hiddenStale).toBe(0);
  });
  test("--project matches the directory and below it, not a sibling with the same prefix", () => {
    expect(ids({ all: false, projects: ["/work/app"] }).rows.map((x) => x.session_id)).toEqual([
      "mid",
      "low",
      "nousage",
    ]);
    expect(ids({ all: false, projects: ["/work/app/"] }).rows.map((x) => x.session_id)).toEqual([
      "mid",
      "low",
      "nousage",
    ]);
    expect(ids({ all: false, projects: ["/work/ap"] }).rows).toEqual([]);
    expect(ids({ all: false, projects: ["/nope", "/work/api"] }).rows.map((x) => x.session_id)).toEqual(["high"]);
  });
});

test("toRow() shows a supervisor whose process died as respawn 'gone', with its recent events", () => {
  const events = [{ at: "2025-01-02T11:59:00.000Z", event: "cycle_done", detail: "clear #1" }];
  const dead = toRow(entry("s", { respawn: { state: "watching" } }), NOW, 3600, T, false, { alive: false, events });
  expect(dead).toMatchObject({ respawn: "gone", respawn_events: events });
  const live = toRow(entry("s", { respawn: { state: "watching" } }), NOW, 3600, T, false, { alive: true, events });
  expect(live).toMatchObject({ respawn: "watching", respawn_events: events });
  expect(toRow(entry("s"), NOW, 3600, T).respawn_events).toBeNull();
});

describe("uniqueLabels", () => {
  test("two rows with one label get their short ids; a unique label and a short-id label stay", () => {
    const rows = [
      { ...row("5015b560-aaaa"), label: "api" },
      { ...row("a1b2c3d4-bbbb"), label: "api" },
      { ...row("ffff0000-cccc"), label: "web" },
      { ...row("12345678-dddd"), label: "12345678" },
    ];
    expect(uniqueLabels(rows).map((r) => r.label)).toEqual(["api (5015b560)", "api (a1b2c3d4)", "web", "12345678"]);
  });
});
