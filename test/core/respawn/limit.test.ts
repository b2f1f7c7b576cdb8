import { describe, expect, test } from "bun:test";
import { classifyScreen } from "../../../src/core/screen.ts";
import { Sim } from "./sim.ts";

const MSG = "You've hit your session limit · resets 3:03pm (UTC)";

/** A session that hit the limit at 85 % (a cycle would be due at an idle), reset `resetIn` ms ahead. */
function atLimit(resetIn: number | null, over: ConstructorParameters<typeof Sim>[0] = {}): Sim {
  const sim = new Sim(over);
  sim.screen("busy");
  sim.wait(500);
  sim.usage(86);
  sim.screen("limitMenu");
  sim.feed({ type: "limit", message: MSG, resetsAt: resetIn === null ? null : sim.now + resetIn });
  return sim;
}

describe("the supervisor at the usage limit", () => {
  test("types nothing before reset + margin, then Esc on the menu, then the continue prompt at the idle box", () => {
    const sim = atLimit(60_000); // margin 30 s (sim settings)
    expect(sim.state.phase).toBe("limited");
    sim.wait(89_000);
    expect(sim.sent()).toEqual([]);
    expect(sim.state.cycles).toBe(0);
    sim.wait(1_000);
    expect(sim.sent()).toEqual(["keys:Escape"]);
    sim.screen("prompt"); // the menu closed: the empty input box
    sim.wait(500);
    expect(sim.sent()).toEqual(["keys:Escape"]); // not quiet for quietMs yet
    sim.wait(1_000);
    expect(sim.sent()).toEqual(["keys:Escape", "limit over: go on"]);
    sim.screen("busy");
    sim.wait(250);
    expect(sim.state.phase).toBe("watching");
    expect(sim.events()).toEqual(["limit", "limit_wait", "limit_menu_left", "limit_continue", "limit_over"]);
  });

  test("a screen that never stands still (2.1.328 animates its logo) still gets the prompt at a steady input box", () => {
    const sim = atLimit(60_000);
    sim.screen("prompt"); // 2.1.328: no menu, the input box stays shown
    for (let t = 0; t < 92_000; t += 250) {
      sim.now += 250;
      sim.feed({ type: "screen", screen: { busy: false, finished: false, prompt: true }, changed: true });
    }
    expect(sim.sent()).toEqual(["limit over: go on"]);
    expect(sim.events()).not.toContain("limit_menu_left");
  });

  test("neither idle nor stuck: no cycle at 86 % while limited, however long it waits", () => {
    const sim = atLimit(3 * 3_600_000, { stuckTimeoutMs: 60_000 });
    sim.screen("prompt"); // the user closed the menu: an idle-looking pane
    sim.stopHook();
    sim.wait(3_600_000);
    expect(sim.sent()).toEqual([]);
    expect(sim.state.phase).toBe("limited");
    expect(sim.events()).not.toContain("cycle_start");
  });

  test("a client that continues by itself is left alone", () => {
    const sim = atLimit(60_000);
    sim.wait(95_000);
    sim.actions.length = 0;
    sim.feed({ type: "screen", screen: classifyScreen("✢ Galloping… (esc to interrupt)"), changed: true });
    expect(sim.state.phase).toBe("watching");
    expect(sim.events()).toEqual(["limit_over"]);
    expect(sim.sent()).toEqual([]);
  });

  test("the client going on before the reset (an automatic retry) ends the wait too", () => {
    const sim = atLimit(600_000);
    sim.wait(5_000);
    sim.screen("busy");
    expect(sim.state.phase).toBe("watching");
    expect(sim.actions.filter((a) => a.type === "record" && a.event === "limit_over").length).toBe(1);
  });

  test("a second source for the same limit adds its reset time without a second wait", () => {
    const sim = new Sim();
    sim.screen("limitMenu");
    sim.feed({ type: "limit", message: "usage limit (the limit menu is open)", resetsAt: null });
    const first = sim.state.limit!.until;
    sim.feed({ type: "limit", message: MSG, resetsAt: sim.now + 60_000 });
    expect(sim.state.limit!.until).toBe(sim.now + 90_000);
    expect(sim.state.limit!.until).toBeLessThan(first); // the back-off (5 min) gave way to the real reset
    expect(sim.state.limitRepeat).toBe(1);
  });

  test("repeated limits back off: the second waits at least 5 minutes, a good turn starts over", () => {
    const sim = atLimit(60_000);
    sim.wait(90_000);
    sim.screen("prompt");
    sim.wait(1_500);
    sim.screen("busy");
    sim.wait(250);
    sim.screen("limitMenu"); // limited again at once
    sim.feed({ type: "limit", message: MSG, resetsAt: sim.now + 10_000 });
    expect(sim.state.limit!.repeat).toBe(2);
    expect(sim.state.limit!.until).toBe(sim.now + 5 * 60_000);
    sim.wait(5 * 60_000 - 1_000);
    expect(sim.sent().filter((k) => k === "keys:Escape").length).toBe(1);
    sim.wait(1_000);
    sim.screen("prompt");
    sim.wait(1_500);
    sim.screen("busy");
    sim.wait(250);
    sim.screen("done");
    sim.stopHook();
    expect(sim.state.limitRepeat).toBe(0);
  });

  test("never a key on another dialog, and Esc (never Enter or a digit) on the limit menu", () => {
    const sim = atLimit(1_000);
    sim.screen("permission");
    sim.wait(120_000);
    expect(sim.sent()).toEqual([]);
    sim.screen("limitMenu");
    sim.wait(12_000);
    const keys = sim.sent();
    expect(keys.length).toBeGreaterThanOrEqual(2); // pressed again while the menu stays open
    expect(new Set(keys)).toEqual(new Set(["keys:Escape"]));
  });

  test("a limit during a cycle aborts it without counting against the hourly cap", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(92);
    sim.wait(1_500);
    expect(sim.state.phase).toBe("cycling");
    expect(sim.state.cycleStarts.length).toBe(1);
    sim.feed({ type: "limit", message: MSG, resetsAt: sim.now + 60_000 });
    expect(sim.state.phase).toBe("limited");
    expect(sim.state.cycle).toBeNull();
    expect(sim.state.cycleStarts).toEqual([]);
  });

  test("the pane: the limit menu is its own blocker, never a question to answer", () => {
    const pane = [
      "  ⎿  You've hit your session limit · resets 3:03pm (UTC)",
      "✻ Cogitated for 0s",
      "❯ /rate-limit-options",
      "─".repeat(60),
      " What do you want to do?",
      "",
      " ❯ 1. Stop and wait for limit to reset",
      "   2. Upgrade your plan",
      "",
      " Enter to confirm · Esc to cancel",
    ].join("\n");
    expect(classifyScreen(pane)).toMatchObject({ blocker: "limit", prompt: false, busy: false });
  });
});
