import { describe, expect, test } from "bun:test";
import {
  emptyLedger,
  isConsumed,
  LEDGER_MAX_ENTRIES,
  markConsumed,
  parseLedger,
} from "../../../src/core/resume/ledger.ts";
import { consumePending, isPendingLive, parsePending } from "../../../src/core/resume/pending.ts";

describe("ledger", () => {
  test("markConsumed records who consumed a summary, without changing the input", () => {
    const before = emptyLedger();
    const after = markConsumed(before, "summary-a.md", {
      session_id: "s1",
      via: "clear",
      at: "2025-01-01T00:00:00.000Z",
    });
    expect(isConsumed(after, "summary-a.md")).toBe(true);
    expect(isConsumed(before, "summary-a.md")).toBe(false);
    expect(after.consumed["summary-a.md"]).toEqual({ session_id: "s1", via: "clear", at: "2025-01-01T00:00:00.000Z" });
  });

  test("drops the oldest entries beyond the cap", () => {
    let l = emptyLedger();
    for (let i = 0; i < LEDGER_MAX_ENTRIES + 3; i++) {
      l = markConsumed(l, `summary-${i}.md`, {
        session_id: "s",
        via: "clear",
        at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
      });
    }
    expect(Object.keys(l.consumed)).toHaveLength(LEDGER_MAX_ENTRIES);
    expect(isConsumed(l, "summary-0.md")).toBe(false);
    expect(isConsumed(l, `summary-${LEDGER_MAX_ENTRIES + 2}.md`)).toBe(true);
  });

  test.each([[null], [3], ["x"], [[]], [{ consumed: [] }], [{ consumed: "no" }]])("parseLedger(%j) is empty", (v) => {
    expect(parseLedger(v)).toEqual(emptyLedger());
  });

  test("parseLedger keeps good entries and skips broken ones", () => {
    const l = parseLedger({
      version: 1,
      consumed: { "a.md": { session_id: "s1", via: "compact", at: "t" }, "b.md": 7, "c.md": { session_id: 5 } },
    });
    expect(Object.keys(l.consumed).sort()).toEqual(["a.md", "c.md"]);
    expect(l.consumed["c.md"]!.session_id).toBeNull();
  });

  test("isConsumed does not see inherited properties", () => {
    expect(isConsumed(emptyLedger(), "constructor")).toBe(false);
  });
});

describe("respawn-pending", () => {
  const now = Date.parse("2025-01-01T12:00:00Z");
  test("parsePending accepts the documented shape", () => {
    expect(
      parsePending({
        version: 1,
        summary_path: "/p/.ctx/sessions/summary-a.md",
        created_at: "2025-01-01T11:59:00Z",
        consumed_by: null,
      }),
    ).toEqual({
      version: 1,
      summary_path: "/p/.ctx/sessions/summary-a.md",
      created_at: "2025-01-01T11:59:00Z",
      consumed_by: null,
      consumed_at: null,
    });
  });
  test.each([
    [null],
    [{}],
    [{ summary_path: "relative.md" }],
    [{ summary_path: 3 }],
    [{ summary_path: "/a\0b" }],
  ])("parsePending(%j) is undefined", (v) => {
    expect(parsePending(v)).toBeUndefined();
  });
  test.each([
    ["fresh and unconsumed", { created_at: "2025-01-01T11:59:00Z", consumed_by: null }, 3_600_000, true],
    ["consumed", { created_at: "2025-01-01T11:59:00Z", consumed_by: "s1" }, 3_600_000, false],
    ["too old", { created_at: "2025-01-01T10:00:00Z", consumed_by: null }, 3_600_000, false],
    ["too old but no limit", { created_at: "2025-01-01T10:00:00Z", consumed_by: null }, false, true],
    ["no creation time", { created_at: "", consumed_by: null }, 3_600_000, false],
  ] as const)("isPendingLive: %s", (_name, fields, max, want) => {
    const p = parsePending({ summary_path: "/s.md", ...fields })!;
    expect(isPendingLive(p, now, max)).toBe(want);
  });
  test("consumePending records the session and the time", () => {
    const p = parsePending({ summary_path: "/s.md", created_at: "2025-01-01T11:59:00Z", consumed_by: null })!;
    expect(consumePending(p, "s9", now)).toMatchObject({
      consumed_by: "s9",
      consumed_at: "2025-01-01T12:00:00.000Z",
      summary_path: "/s.md",
    });
  });
});
