import { describe, expect, test } from "bun:test";
import { addToLedger, asTokenLedger, emptyTokenLedger } from "../../../src/core/track/ledger.ts";
import { emptyTotals } from "../../../src/core/track/state.ts";

describe("asTokenLedger()", () => {
  test.each([
    [null],
    [undefined],
    [3],
    [[]],
    [{ version: 2, tasks: {} }],
    [{ version: 1 }],
    [{ version: 1, tasks: [] }],
  ])("%j is no token ledger", (v) => expect(asTokenLedger(v)).toBeUndefined());
  test("a version 1 ledger is taken as it is", () => {
    const l = { version: 1, tasks: { t: { ...emptyTotals(), sessions: ["s"], models: {}, updated_at: "x" } } };
    expect(asTokenLedger(l)).toBe(l as never);
  });
});

describe("addToLedger()", () => {
  test("adds each model's deltas to the task and its model, once per session; zero deltas change nothing", () => {
    const delta = { ...emptyTotals(), input_tokens: 10, output_tokens: 2, requests: 1 };
    let l = addToLedger(emptyTokenLedger(), "t", "s1", { m: delta, idle: emptyTotals() }, "2026-01-01T00:00:00Z");
    l = addToLedger(l, "t", "s1", { m: delta }, "2026-01-01T00:01:00Z");
    const task = l.tasks.t!;
    expect(task.input_tokens).toBe(20);
    expect(task.models.m?.output_tokens).toBe(4);
    expect(task.models.idle).toBeUndefined();
    expect(task.sessions).toEqual(["s1"]);
    expect(task.updated_at).toBe("2026-01-01T00:01:00Z");
    expect(emptyTokenLedger()).toEqual({ version: 1, tasks: {} });
  });
});
