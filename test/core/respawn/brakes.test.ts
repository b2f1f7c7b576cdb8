import { describe, expect, test } from "bun:test";
import { Sim } from "./sim.ts";

/** One restart cycle at `pct`, then the new session's first reply at `after` %, then idle. */
function cycle(sim: Sim, pct: number, after: number): void {
  sim.turn(pct);
  sim.wait(1250);
  sim.feed({ type: "finalize_done", ok: true });
  sim.screen("prompt");
  sim.wait(1250);
  sim.screen("busy");
  sim.wait(250);
  sim.turn(after);
}

describe("brakes", () => {
  test("no-progress breaker: usage back at the trigger right after two cycles in a row halts and tells the user", () => {
    const sim = new Sim({ compactAt: false });
    cycle(sim, 95, 95);
    expect(sim.state.noProgress).toBe(1);
    sim.wait(1250); // second cycle starts from this idle
    sim.feed({ type: "finalize_done", ok: true });
    sim.screen("prompt");
    sim.wait(1250);
    sim.screen("busy");
    sim.wait(250);
    const n = sim.sent().length;
    sim.turn(94);
    const out = sim.wait(1250);
    expect(sim.state.phase).toBe("halted");
    expect(sim.state.brake).toBe("no_progress");
    expect(out.some((a) => a.type === "notify" && a.message.includes("cycling stopped"))).toBe(true);
    sim.turn(99);
    sim.wait(600_000);
    expect(sim.sent().length).toBe(n); // halted: never acts again
  });

  test("a cycle that brings usage down resets the no-progress count", () => {
    const sim = new Sim({ compactAt: false });
    cycle(sim, 95, 95);
    expect(sim.state.noProgress).toBe(1);
    sim.wait(1250);
    sim.feed({ type: "finalize_done", ok: true });
    sim.screen("prompt");
    sim.wait(1250);
    sim.screen("busy");
    sim.wait(250);
    sim.turn(20);
    expect(sim.state.noProgress).toBe(0);
  });

  test("cooldown: no cycle until cooldown_s has passed since the last one", () => {
    const sim = new Sim({ mode: "keep-working", updatePrompt: "", sendClear: false, cooldownMs: 60_000 });
    sim.turn(10);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["continue"]);
    sim.screen("busy");
    sim.wait(250);
    sim.turn(12);
    sim.wait(30_000);
    expect(sim.sent()).toEqual(["continue"]);
    expect(sim.state.brake).toBe("cooldown");
    sim.wait(31_000);
    expect(sim.sent()).toEqual(["continue", "continue"]);
  });

  test("usage_window: at limits.checkpoint_at of the 5-hour window no cycle starts before its reset; it says so once", () => {
    const sim = new Sim({ compactAt: false });
    const resetsMs = sim.now + 120_000;
    sim.feed({ type: "usage_window", window: { usedPct: 91, resetsMs } });
    sim.turn(95); // a restart cycle is due
    const out = sim.wait(60_000);
    expect(sim.state.brake).toBe("usage_window");
    expect(sim.sent()).toEqual([]);
    const told = out.filter((a) => a.type === "notify");
    expect(told.map((a) => (a.type === "notify" ? a.message : ""))).toEqual([
      expect.stringMatching(
        /^waiting for the 5-hour usage window to reset at \d\d:\d\d \(91% used\): a cycle started now could not finish before it\.$/,
      ),
    ]);
    sim.wait(61_000); // past the reset: the cycle starts
    expect(sim.state.phase).not.toBe("watching");
    expect(sim.events()).toContain("cycle_start");
  });

  test("max_cycles_per_hour: the cap holds cycles back, reports once, and frees up as the hour rolls", () => {
    const sim = new Sim({ mode: "keep-working", updatePrompt: "", sendClear: false, maxCyclesPerHour: 2 });
    for (let i = 0; i < 2; i++) {
      sim.turn(10);
      sim.wait(1250);
      sim.screen("busy");
      sim.wait(250);
    }
    sim.turn(10);
    sim.wait(60_000);
    expect(sim.sent()).toEqual(["continue", "continue"]);
    expect(sim.events().filter((e) => e === "brake")).toEqual(["brake"]);
    expect(sim.actions.filter((a) => a.type === "notify").length).toBe(1);
    sim.wait(3_600_000 - 60_000);
    expect(sim.sent()).toEqual(["continue", "continue", "continue"]);
  });
});

describe("timers and recovery", () => {
  test("a step never confirmed is abandoned after step_timeout; Enter is retried once if the text sat in the box", () => {
    const sim = new Sim({ stepTimeoutMs: 20_000 });
    sim.turn(86);
    sim.wait(1250);
    sim.screen("typed"); // the text is in the box, Enter was taken as a newline
    sim.wait(6000);
    expect(sim.sent()).toEqual(["/compact keep state", "keys:Enter"]);
    sim.wait(21_000);
    expect(sim.state.phase).not.toBe("cycling");
    expect(sim.state.lastCycle).toMatchObject({ kind: "compact", ok: false });
    expect(sim.actions.some((a) => a.type === "notify" && a.message.includes("not confirmed"))).toBe(true);
  });

  test("stuck-state timeout: a cycle that keeps the client busy past stuck_timeout is abandoned (recovery to watching)", () => {
    const sim = new Sim({ stuckTimeoutMs: 120_000, stepTimeoutMs: 1_000_000 });
    sim.turn(86);
    sim.wait(1250);
    sim.screen("busy");
    sim.wait(119_000);
    expect(sim.state.phase).toBe("cycling");
    sim.wait(2000);
    expect(sim.state.phase).toBe("watching");
    expect(sim.events()).toContain("cycle_aborted");
  });

  test("finalize timing out abandons the cycle", () => {
    const sim = new Sim({ compactAt: false, stepTimeoutMs: 10_000 });
    sim.turn(92);
    sim.wait(1250);
    sim.wait(10_500);
    expect(sim.state.lastCycle).toMatchObject({ kind: "restart", ok: false });
  });

  test("SIGINT/SIGTERM (stop) and a vanished pane end supervision with an exit action", () => {
    const a = new Sim();
    expect(a.feed({ type: "stop", reason: "signal" }).map((x) => x.type)).toEqual(["record", "exit"]);
    expect(a.state.phase).toBe("stopped");
    expect(a.feed({ type: "tick" })).toEqual([]);
    const b = new Sim();
    b.turn(86);
    b.wait(1250);
    b.feed({ type: "pane_gone" });
    expect(b.state).toMatchObject({ phase: "stopped", cycle: null, reason: "the pane is gone" });
  });
});

describe("AI idle check", () => {
  test("silence asks for a verdict; IDLE confirms and the cycle runs", () => {
    const sim = new Sim({ aiCheck: true });
    sim.usage(87);
    sim.screen("prompt");
    sim.wait(10_250);
    expect(sim.sent()).toEqual(["ai_check"]);
    expect(sim.state.phase).toBe("ai_checking");
    sim.feed({ type: "ai_verdict", verdict: "idle" });
    expect(sim.sent()).toEqual(["ai_check", "/compact keep state"]);
  });

  test("WORKING holds off further checks for the cooldown", () => {
    const sim = new Sim({ aiCheck: true, aiCheckCooldownMs: 60_000 });
    sim.screen("prompt");
    sim.wait(10_250);
    sim.feed({ type: "ai_verdict", verdict: "working" });
    sim.wait(50_000);
    expect(sim.sent()).toEqual(["ai_check"]);
    sim.wait(11_000);
    expect(sim.sent()).toEqual(["ai_check", "ai_check"]);
  });

  test("errors and timeouts fall back to the silence; three in a row disable the check", () => {
    const sim = new Sim({ aiCheck: true, aiCheckTimeoutMs: 5000 });
    sim.screen("prompt");
    for (let i = 0; i < 3; i++) {
      sim.screen("busy");
      sim.wait(250);
      sim.screen("prompt");
      sim.wait(10_250);
      if (i < 2) sim.feed({ type: "ai_verdict", verdict: "error", detail: "exit 1" });
      else sim.wait(5500); // the third one times out
      expect(sim.state.phase).toBe("idle");
    }
    expect(sim.state.ai).toMatchObject({ errors: 3, disabled: true });
    expect(sim.actions.some((a) => a.type === "notify" && a.message.includes("disabled"))).toBe(true);
    sim.screen("busy");
    sim.wait(250);
    sim.screen("prompt");
    sim.wait(11_500);
    expect(sim.sent().filter((x) => x === "ai_check").length).toBe(3);
  });
});
