import { describe, expect, test } from "bun:test";
import { decideHook, type HookSituation } from "../../../src/core/resume/hook-decision.ts";
import { emptyLedger, markConsumed, type Ledger } from "../../../src/core/resume/ledger.ts";
import type { RespawnPending } from "../../../src/core/resume/pending.ts";
import type { SummaryFile } from "../../../src/core/resume/summaries.ts";

const NOW = Date.parse("2025-01-02T12:00:00Z");
const H = 3_600_000;
const file = (name: string, ageH: number): SummaryFile => ({
  name,
  path: `/p/.ctx/sessions/${name}`,
  mtimeMs: NOW - ageH * H,
});
const OLD = file("summary-t-20250101-100000.md", 5);
const NEW = file("summary-t-20250102-110000.md", 1);
const texts: Record<string, string> = { [OLD.path]: "old summary body", [NEW.path]: "new summary body" };
const consumed = (...names: string[]): Ledger =>
  names.reduce(
    (l, n) => markConsumed(l, n, { session_id: "before", via: "clear", at: "2025-01-02T00:00:00.000Z" }),
    emptyLedger(),
  );

function situation(over: Partial<HookSituation> = {}): HookSituation {
  return {
    source: "clear",
    sessionId: "s-new",
    nowMs: NOW,
    summaries: [OLD, NEW],
    ledger: emptyLedger(),
    limits: { injectMaxAgeMs: 48 * H, hintMaxAgeMs: 168 * H, pendingMaxAgeMs: H },
    load: (p) => texts[p],
    ...over,
  };
}

describe("decideHook after /clear or compaction", () => {
  test.each([
    "clear",
    "compact",
  ])("%s injects the newest unconsumed summary and marks it consumed by the new session", (source) => {
    const d = decideHook(situation({ source }));
    expect(d.action).toBe("inject");
    if (d.action !== "inject") return;
    expect(d.summary).toBe(NEW.name);
    expect(d.text).toContain("new summary body");
    expect(d.text).toContain(NEW.path);
    expect(d.ledger.consumed[NEW.name]).toEqual({
      session_id: "s-new",
      via: source as "clear",
      at: new Date(NOW).toISOString(),
    });
    expect(d.pending).toBeUndefined();
  });

  test("loop guard: once the newest is consumed, nothing (an older one is history)", () => {
    expect(decideHook(situation({ ledger: consumed(NEW.name) }))).toEqual({
      action: "none",
      reason: "no unconsumed summary",
    });
  });

  test("a newer summary after a consumed one is injected", () => {
    const d = decideHook(situation({ ledger: consumed(OLD.name) }));
    expect(d.action === "inject" && d.summary).toBe(NEW.name);
  });

  test("an unreadable or empty newest falls back to the next unconsumed one", () => {
    for (const bad of [undefined, "  \n"]) {
      const d = decideHook(situation({ load: (p) => (p === NEW.path ? bad : texts[p]) }));
      expect(d.action === "inject" && d.summary).toBe(OLD.name);
    }
  });

  test("a summary older than resume.inject_max_age_s is not injected", () => {
    const d = decideHook(situation({ limits: { injectMaxAgeMs: 0.5 * H, hintMaxAgeMs: false, pendingMaxAgeMs: H } }));
    expect(d.action).toBe("none");
  });

  test("no summaries, nothing", () => {
    expect(decideHook(situation({ summaries: [] })).action).toBe("none");
  });
});

describe("decideHook on a plain startup", () => {
  test.each([
    "startup",
    "resume",
    undefined,
  ])("source %p only hints at an unconsumed summary, consuming nothing", (source) => {
    const d = decideHook(situation({ source }));
    expect(d.action).toBe("hint");
    if (d.action !== "hint") return;
    expect(d.summary).toBe(NEW.name);
    expect(d.text).toContain("ctx resume --latest");
    expect(d.text).toContain("1h old");
    expect(d.text).not.toContain("new summary body");
    expect("ledger" in d).toBe(false);
  });

  test("no hint when the newest is consumed, too old, or hints are off", () => {
    expect(decideHook(situation({ source: "startup", ledger: consumed(NEW.name) })).action).toBe("none");
    expect(
      decideHook(
        situation({ source: "startup", limits: { injectMaxAgeMs: false, hintMaxAgeMs: 0.5 * H, pendingMaxAgeMs: H } }),
      ).action,
    ).toBe("none");
    expect(
      decideHook(
        situation({ source: "startup", limits: { injectMaxAgeMs: false, hintMaxAgeMs: false, pendingMaxAgeMs: H } }),
      ).action,
    ).toBe("none");
  });
});

describe("decideHook with a respawn-pending file", () => {
  const pending = (over: Partial<RespawnPending> = {}): RespawnPending => ({
    version: 1,
    summary_path: OLD.path,
    created_at: new Date(NOW - 60_000).toISOString(),
    consumed_by: null,
    ...over,
  });

  test.each([
    "startup",
    "clear",
    "resume",
  ])("on %s, injects exactly the pending summary and consumes both pending and ledger", (source) => {
    const d = decideHook(situation({ source, pending: pending() }));
    expect(d.action).toBe("inject");
    if (d.action !== "inject") return;
    expect(d.summary).toBe(OLD.name);
    expect(d.via).toBe("pending");
    expect(d.text).toContain("old summary body");
    expect(d.text.split("\n")[0]).toContain("restarted");
    expect(d.pending).toMatchObject({ consumed_by: "s-new", consumed_at: new Date(NOW).toISOString() });
    expect(d.ledger.consumed[OLD.name]!.session_id).toBe("s-new");
  });

  test("a consumed, stale or unreadable pending file is ignored: startup hints, clear injects the newest", () => {
    for (const p of [
      pending({ consumed_by: "other" }),
      pending({ created_at: new Date(NOW - 2 * H).toISOString() }),
      pending({ summary_path: "/nope.md" }),
    ]) {
      expect(decideHook(situation({ source: "startup", pending: p })).action).toBe("hint");
      const d = decideHook(situation({ source: "clear", pending: p }));
      expect(d.action === "inject" && d.summary).toBe(NEW.name);
    }
  });
});
