import { describe, expect, test } from "bun:test";
import { aiVerdict, type ChildOutcome, finalizeDone } from "../../../src/core/respawn/outcomes.ts";

const ran = (over: Partial<ChildOutcome>): ChildOutcome => ({
  code: 0,
  stdout: "",
  stderr: "",
  timedOut: false,
  ...over,
});

describe("finalizeDone: what ctx finalize's exit says", () => {
  test("exit 0 with the summary's path on its last line: done, with that path", () => {
    const r = ran({ stdout: "wrote the record\n/p/.ctx/sessions/summary-c-1.md\n" });
    expect(finalizeDone(r)).toEqual({
      type: "finalize_done",
      ok: true,
      summaryPath: "/p/.ctx/sessions/summary-c-1.md",
    });
  });
  test.each([
    [{ timedOut: true, code: null, stdout: "/p/s.md" }, "timed out"],
    [{ code: 1, stderr: "ctx: error\nno session state\n" }, "exit 1: no session state"],
    [{ code: 0, stdout: "relative/s.md" }, "exit 0: "],
  ] as const)("%j fails: %s", (over, detail) => {
    expect(finalizeDone(ran(over))).toEqual({ type: "finalize_done", ok: false, detail });
  });
  test("the reason is at most 300 characters", () => {
    expect(finalizeDone(ran({ code: 2, stderr: "x".repeat(1000) })).detail).toHaveLength(300);
  });
});

describe("aiVerdict: what claude -p answered", () => {
  test.each([
    [{ stdout: "IDLE\n" }, { verdict: "idle" }],
    [{ stdout: "WORKING" }, { verdict: "working" }],
    [
      { timedOut: true, code: null },
      { verdict: "error", detail: "timeout" },
    ],
    [
      { code: 3, stdout: "IDLE" },
      { verdict: "error", detail: "exit 3" },
    ],
    [{ stdout: " maybe " }, { verdict: "error", detail: "no verdict in: maybe" }],
  ] as const)("%j → %j", (over, want) => {
    expect(aiVerdict(ran(over))).toEqual({ type: "ai_verdict", ...want });
  });
});
