import { describe, expect, test } from "bun:test";
import { parseIndexEntry, withBridge } from "../../../src/core/status/entry.ts";
import { CODEX_NOTE, renderJson, renderTable, stateText } from "../../../src/core/status/render.ts";
import { toRow } from "../../../src/core/status/rows.ts";
import { parseStatusArgs } from "../../../src/core/status/args.ts";
import { CtxError } from "../../../src/core/deps.ts";

const NOW = Date.parse("2025-01-02T12:00:00Z");
const T = { warning: 65, critical: 75, auto_pause: 90 } as const;
const row = (sid: string, over: Record<string, unknown> = {}) =>
  toRow(
    parseIndexEntry({
      session_id: sid,
      task_id: "chain-alpaca",
      project: "/home/u/work/app",
      agent: "opencode",
      model: "claude-sonnet-4-5",
      used_pct: 87,
      used_tokens: 174000,
      window_size: 200000,
      context_window_source: "client_args",
      threshold_reached: "warning",
      auto_pause_active: false,
      respawn: null,
      updated_at: new Date(NOW - 125_000).toISOString(),
      ...over,
    })!,
    NOW,
    3600,
    T,
  );

describe("renderTable", () => {
  test("one aligned line per session with bar, tokens, level, state and age", () => {
    const out = renderTable(
      [
        row("0123456789abcdef"),
        row("fedcba9876543210", {
          used_pct: 5,
          used_tokens: 9000,
          threshold_reached: null,
          model: "claude-opus-4-1",
          auto_pause_active: true,
        }),
      ],
      { color: false, hiddenStale: 0, home: "/home/u" },
    );
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^PROJECT\s+SESSION\s+TASK\s+MODEL\s+USED\s+TOKENS\s+LEVEL\s+STATE\s+UPDATED$/);
    expect(lines[1]).toMatch(
      /^~\/work\/app\s+01234567\s+chain-alpaca\s+Sonnet 4\.5\s+█████████░ {2}87%\s+174k\/200k\s+warning\s+-\s+2m ago$/,
    );
    expect(lines[2]).toContain("█░░░░░░░░░   5%");
    expect(lines[2]).toContain("paused");
    const col = (l: string) => (l.indexOf("TOKENS") >= 0 ? l.indexOf("TOKENS") : l.search(/\d+k\//));
    expect(col(lines[1]!)).toBe(col(lines[0]!));
    expect(col(lines[2]!)).toBe(col(lines[0]!));
    expect(out).not.toContain("\x1b[");
  });

  test("colours the level and greys stale rows; no colour at all without color", () => {
    const stale = row("old", { updated_at: "2024-01-01T00:00:00Z" });
    const out = renderTable([row("live"), stale], { color: true, hiddenStale: 0 });
    const lines = out.split("\n");
    expect(lines[1]).toContain("\x1b[33mwarning");
    expect(lines[2]!.startsWith("\x1b[2m")).toBe(true);
    expect(lines[2]).not.toContain("\x1b[33m");
  });

  test("says how many stale sessions are hidden, and when there is nothing", () => {
    expect(renderTable([row("a")], { color: false, hiddenStale: 2 })).toContain(
      "2 stale sessions hidden (--all shows them)",
    );
    expect(renderTable([], { color: false, hiddenStale: 1 })).toBe(
      "No ctx sessions to show.\n1 stale session hidden (--all shows it)\n",
    );
  });

  test("control characters from state files never reach the terminal", () => {
    const out = renderTable([row("a", { project: "/x/\x1b[31mevil", model: "m\x07" })], {
      color: false,
      hiddenStale: 0,
    });
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
  });

  test("unknown usage shows dashes", () => {
    const out = renderTable([row("a", { used_pct: null, used_tokens: null })], { color: false, hiddenStale: 0 });
    expect(out.split("\n")[1]).toMatch(/░{10}\s+--\s+--/);
  });
});

describe("stateText", () => {
  test.each([
    [{ auto_pause_active: false, respawn: null, ended: false }, "-"],
    [{ auto_pause_active: true, respawn: null, ended: false }, "paused"],
    [{ auto_pause_active: true, respawn: "watching", ended: false }, "paused,respawn:watching"],
    [{ auto_pause_active: false, respawn: null, ended: true }, "ended"],
    [{ auto_pause_active: true, respawn: "watching", ended: true }, "ended"], // never `ended,paused`
  ])("%j → %s", (r, want) => {
    expect(stateText(r)).toBe(want);
  });

  test("at the usage limit: the reset in local time (TZ of the process), from the index entry", () => {
    const r = row("a", {
      limit: "You've hit your session limit · resets 3:03pm (UTC)",
      resets_at: "2025-01-02T15:03:00Z",
    });
    expect(r.resets_at).toBe("2025-01-02T15:03:00.000Z");
    const local = new Date(Date.parse("2025-01-02T15:03:00Z"));
    const hhmm = `${String(local.getHours()).padStart(2, "0")}:${String(local.getMinutes()).padStart(2, "0")}`;
    expect(stateText(r)).toBe(`limit · resets ${hhmm}`);
    expect(stateText(row("b", { limit: "API Error: Request rejected (429)" }))).toBe("limit");
    expect(stateText(row("c", { resets_at: "2025-01-02T15:03:00Z" }))).toBe("-"); // a reset without a limit is none
  });
});

describe("renderJson", () => {
  test("a versioned document with every row field and the hidden count", () => {
    const doc = JSON.parse(renderJson([row("a")], 3, NOW, false, 2));
    expect(doc).toMatchObject({
      version: 1,
      generated_at: "2025-01-02T12:00:00.000Z",
      hidden_stale: 3,
      hidden_ended: 2,
    });
    expect(doc.sessions[0]).toEqual({
      session_id: "a",
      label: "a",
      task_id: "chain-alpaca",
      project: "/home/u/work/app",
      agent: "opencode",
      model: "claude-sonnet-4-5",
      used_pct: 87,
      used_tokens: 174000,
      window_size: 200000,
      context_window_source: "client_args",
      level: "warning",
      auto_pause_active: false,
      budget: null,
      budget_pct: null,
      limit: null,
      resets_at: null,
      respawn: null,
      respawn_events: null,
      ended: false,
      ended_long_ago: false,
      updated_at: new Date(NOW - 125_000).toISOString(),
      age_s: 125,
      stale: false,
      model_name: "Sonnet 4.5",
    });
  });
});

describe("parseStatusArgs", () => {
  test.each([
    ["", { all: false, json: false, watch: false }],
    ["--all --json", { all: true, json: true, watch: false }],
    ["--min 80", { all: false, json: false, watch: false, minPct: 80 }],
    ["--min=80%", { all: false, json: false, watch: false, minPct: 80 }],
    [
      "--watch --interval 0.5 --project ../x",
      { all: false, json: false, watch: true, intervalS: 0.5, project: "../x" },
    ],
  ])("%j", (argv, want) => {
    expect(parseStatusArgs(argv === "" ? [] : argv.split(" "))).toEqual(want);
  });
  test.each(["--min", "--min abc", "--min -5", "--interval 0", "--bogus", "extra"])("%j is a usage error", (argv) => {
    expect(() => parseStatusArgs(argv.split(" "))).toThrow(CtxError);
  });
});

describe("labels and the status line's figure", () => {
  test("SESSION shows the label (the tmux window's name), else the short id", () => {
    const out = renderTable([{ ...row("0123456789abcdef"), label: "alpaca" }, row("fedcba9876543210")], {
      color: false,
      hiddenStale: 0,
    });
    const lines = out.split("\n");
    expect(lines[1]).toContain("  alpaca    ");
    expect(lines[2]).toContain("  fedcba98  ");
    expect(
      renderTable([{ ...row("0123456789abcdef"), label: "\x1b]0;x\x07ev\u202eil" }], { color: false, hiddenStale: 0 }),
    ).toContain("  evil  ");
  });

  test("a bridge file at least as new as the entry gives its figure, and the level follows it", () => {
    const e = parseIndexEntry({
      session_id: "s1",
      used_pct: 60,
      used_tokens: 120_000,
      window_size: 200_000,
      threshold_reached: null,
      updated_at: new Date(NOW - 3000).toISOString(),
    })!;
    const bridge = (pct: number, ageMs: number) => ({
      session_id: "s1",
      used_pct: pct,
      remaining_percentage: 100 - pct,
      used_tokens: pct * 2000,
      context_window_size: 200_000,
      timestamp: Math.floor((NOW - ageMs) / 1000),
      model: null,
      cwd: null,
      transcript_path: null,
    });
    const newer = withBridge(e, bridge(66, 1000));
    expect(newer).toMatchObject({ used_pct: 66, used_tokens: 132_000, context_window_source: "statusline" });
    expect(toRow(newer, NOW, 3600, T).level).toBe("warning");
    expect(withBridge(e, bridge(58, 10_000))).toBe(e); // older than the entry: the entry's figure stands
    expect(withBridge(e, { ...bridge(66, 0), session_id: "other" })).toBe(e);
    expect(withBridge(e, undefined)).toBe(e);
  });
});

describe("a Codex row", () => {
  test("the table explains Codex's formula once, below it; no note without a Codex row", () => {
    const codex = row("c1", {
      context_window_source: "transcript",
      used_pct: 69,
      used_tokens: 182_000,
      window_size: 258_400,
    });
    const out = renderTable([codex], { color: false, hiddenStale: 0 });
    expect(out).toContain("69%");
    expect(out).toContain("182k/258k");
    expect(out.endsWith(CODEX_NOTE)).toBe(true);
    expect(renderTable([row("s1")], { color: false, hiddenStale: 0 })).not.toContain("Codex rows");
  });
});
