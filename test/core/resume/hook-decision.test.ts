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
      task_id: "t",
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

  test("after /clear, injects exactly the pending summary and consumes both pending and ledger", () => {
    const d = decideHook(situation({ source: "clear", pending: pending() }));
    expect(d.action).toBe("inject");
    if (d.action !== "inject") return;
    expect(d.summary).toBe(OLD.name);
    expect(d.via).toBe("pending");
    expect(d.text).toContain("old summary body");
    expect(d.text.split("\n")[0]).toContain("restarted");
    expect(d.pending).toMatchObject({ consumed_by: "s-new", consumed_at: new Date(NOW).toISOString() });
    expect(d.ledger.consumed[OLD.name]!.session_id).toBe("s-new");
  });

  test.each(["startup", "resume", "compact"])("on %s the pending file is not honoured", (source) => {
    const d = decideHook(situation({ source, pending: pending() }));
    expect(d.action === "inject" && d.rule).not.toBe("pending");
    expect(d.action === "inject" && d.summary).not.toBe(OLD.name);
  });

  test("a pending summary already consumed, or older than a consumed one of its chain, is not injected again", () => {
    for (const name of [OLD.name, NEW.name]) {
      const d = decideHook(situation({ source: "clear", pending: pending(), ledger: consumed(name) }));
      expect(d.action === "inject" && d.rule).not.toBe("pending");
    }
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

describe("decideHook with two chains in one project (issue 15)", () => {
  const A = file("summary-chain-aaaa-20250102-100000.md", 2);
  const B = file("summary-chain-bbbb-20250102-110000.md", 1);
  const load = (p: string) => (p === A.path ? "alpaca exporter" : p === B.path ? "bison importer" : undefined);
  const two = (over: Partial<HookSituation>) => situation({ summaries: [A, B], load, ...over });

  test("after /clear each chain gets its own summary, even when the other's is newer", () => {
    const a = decideHook(two({ chain: "chain-aaaa" }));
    expect(a.action === "inject" && [a.summary, a.rule]).toEqual([A.name, "chain"]);
    if (a.action === "inject") expect(a.ledger.consumed[A.name]!.task_id).toBe("chain-aaaa");
    const b = decideHook(two({ chain: "chain-bbbb", source: "compact" }));
    expect(b.action === "inject" && b.summary).toBe(B.name);
  });

  test("a summary consumed by one chain is never injected into another; the chain's own history stays history", () => {
    const ledger = consumed(B.name);
    expect(decideHook(two({ chain: "chain-bbbb", ledger }))).toEqual({
      action: "none",
      reason: "no unconsumed summary of chain-bbbb",
    });
    // A's consumption of B does not make A's own (older) summary history.
    const a = decideHook(two({ chain: "chain-aaaa", ledger }));
    expect(a.action === "inject" && a.summary).toBe(A.name);
    // A chain without a summary gets nothing, never the other's.
    expect(decideHook(two({ chain: "chain-cccc" })).action).toBe("none");
  });

  test("without a link, the fallback skips summaries of live chains", () => {
    const d = decideHook(two({ liveChains: new Set(["chain-bbbb"]) }));
    expect(d.action === "inject" && [d.summary, d.rule]).toEqual([A.name, "fallback"]);
    expect(decideHook(two({ liveChains: new Set(["chain-aaaa", "chain-bbbb"]) })).action).toBe("none");
  });

  test("a respawn hand-over of another chain is left for that chain", () => {
    const pending: RespawnPending = {
      version: 1,
      summary_path: B.path,
      created_at: new Date(NOW - 1000).toISOString(),
      consumed_by: null,
    };
    const a = decideHook(two({ chain: "chain-aaaa", pending }));
    expect(a.action === "inject" && [a.summary, a.rule]).toEqual([A.name, "chain"]);
    const b = decideHook(two({ chain: "chain-bbbb", pending }));
    expect(b.action === "inject" && [b.summary, b.rule]).toEqual([B.name, "pending"]);
  });
});
