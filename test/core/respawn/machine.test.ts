import { describe, expect, test } from "bun:test";
import { classifyScreen } from "../../../src/core/screen.ts";
import { Sim } from "./sim.ts";

/** Runs a full restart cycle from a confirmed idle at `pct`: finalize ok, /clear taken, kickstart taken. */
function runRestart(sim: Sim, pct: number): void {
  sim.turn(pct);
  sim.wait(1500);
  expect(sim.state.cycle?.steps[sim.state.cycle.index]?.kind).toBe("finalize");
  sim.feed({ type: "finalize_done", ok: true });
  sim.screen("prompt"); // the cleared screen
  sim.wait(1500);
  sim.screen("busy"); // the kickstart is being worked on
  sim.wait(250);
}

describe("idle detection", () => {
  test("the Stop hook, confirmed by a quiet period, settles the idle; below the triggers nothing is sent", () => {
    const sim = new Sim();
    sim.screen("busy");
    sim.wait(500);
    sim.usage(40);
    sim.screen("prompt"); // no completion line on screen (scrolled away)
    sim.stopHook();
    sim.wait(500);
    expect(sim.state.phase).toBe("confirming_idle");
    expect(sim.state.idleSignal).toBe("stop_hook");
    sim.wait(750);
    expect(sim.state.phase).toBe("idle");
    expect(sim.sent()).toEqual([]);
  });

  test("a completion line with a verb never seen before is an idle signal without any hook", () => {
    const sim = new Sim();
    sim.usage(88);
    sim.feed({
      type: "screen",
      screen: classifyScreen(`● ok\n✻ Zorblaxed for 3s\n${"─".repeat(20)}\n❯ \n${"─".repeat(20)}`),
      changed: true,
    });
    expect(sim.state.idleSignal).toBe("completion");
    sim.feed({ type: "tick" });
    sim.now += 1000;
    sim.feed({ type: "tick" });
    expect(sim.sent()).toEqual(["/compact keep state"]);
  });

  test("output silence with stable tokens counts as idle; changing tokens hold it back", () => {
    const sim = new Sim();
    sim.screen("prompt");
    for (let i = 0; i < 5; i++) {
      sim.usage(50 + i); // tokens still moving
      sim.wait(2500);
    }
    expect(sim.state.phase).toBe("watching");
    sim.wait(10_000);
    expect(sim.state.idleSignal).toBe("silence");
    sim.wait(1000);
    expect(sim.state.phase).toBe("idle");
  });

  test("new output during the quiet period cancels the idle", () => {
    const sim = new Sim();
    sim.turn(88);
    sim.wait(500);
    sim.screen("busy");
    expect(sim.state.phase).toBe("watching");
    expect(sim.events()).toContain("idle_cancelled");
    expect(sim.sent()).toEqual([]);
  });

  test("text typed in the input box is never treated as idle", () => {
    const sim = new Sim();
    sim.usage(95);
    sim.screen("typed");
    sim.stopHook();
    sim.wait(60_000);
    expect(sim.sent()).toEqual([]);
  });
});

describe("dialogs", () => {
  test.each(["permission", "question", "plan"] as const)("never acts while a %s dialog is open", (dialog) => {
    const sim = new Sim({ mode: "keep-working" });
    sim.usage(99);
    sim.screen(dialog);
    sim.stopHook();
    sim.wait(120_000);
    expect(sim.sent()).toEqual([]);
  });

  test("auto_accept_plans presses Enter on a plan menu after the quiet period, never on permission prompts", () => {
    const sim = new Sim({ autoAcceptPlans: true });
    sim.screen("permission");
    sim.wait(5000);
    expect(sim.sent()).toEqual([]);
    sim.screen("plan");
    sim.wait(500);
    expect(sim.sent()).toEqual([]);
    sim.wait(600);
    expect(sim.sent()).toEqual(["keys:Enter"]);
    sim.wait(2000); // no second Enter right away
    expect(sim.sent()).toEqual(["keys:Enter"]);
  });
});

describe("context strategy", () => {
  test("at compact_at the idle session gets /compact; the step is confirmed once the client is idle again", () => {
    const sim = new Sim();
    sim.turn(86);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["/compact keep state"]);
    expect(sim.state.phase).toBe("cycling");
    sim.wait(5000); // nothing happened on screen yet: not confirmed
    expect(sim.state.phase).toBe("cycling");
    sim.screen("busy");
    sim.wait(1000);
    sim.screen("done");
    sim.wait(1250);
    expect(sim.state.phase).not.toBe("cycling");
    expect(sim.state.cycles).toBe(1);
    expect(sim.events()).toContain("cycle_done");
    sim.wait(10_000); // no fresh reading since the compaction: no second one
    expect(sim.sent()).toEqual(["/compact keep state"]);
  });

  test("after /compact the agent gets its Next: prompt, so it does not sit idle", () => {
    const sim = new Sim({ compactContinuePrompt: "Next: go on" });
    sim.turn(86);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["/compact keep state"]);
    sim.screen("busy");
    sim.wait(1000);
    sim.screen("done");
    sim.wait(1250);
    expect(sim.sent()).toEqual(["/compact keep state", "Next: go on"]);
    sim.screen("busy");
    sim.wait(1000);
    sim.screen("done");
    sim.wait(1250);
    expect(sim.state.phase).not.toBe("cycling");
    expect(sim.state.cycles).toBe(1);
    expect(sim.events()).toContain("cycle_done");
  });

  test("still at restart_at after the compaction: the full cycle runs (finalize, /clear, kickstart)", () => {
    const sim = new Sim();
    sim.turn(91);
    sim.wait(1250);
    sim.screen("busy");
    sim.wait(500);
    sim.screen("done");
    sim.wait(1250);
    expect(sim.state.lastCycle?.kind).toBe("compact");
    runRestart(sim, 92); // the fresh reading after the compaction is still 92 %
    expect(sim.sent()).toEqual(["/compact keep state", "finalize", "/clear", "continue"]);
    expect(sim.state.cycles).toBe(2);
    expect(sim.state.noProgress).toBe(1);
  });

  test("with compaction off, restart_at runs the full cycle directly", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(88);
    sim.wait(2000);
    expect(sim.sent()).toEqual([]);
    runRestart(sim, 90);
    expect(sim.sent()).toEqual(["finalize", "/clear", "continue"]);
    expect(sim.state.lastCycle).toMatchObject({ kind: "restart", ok: true, trigger: 90 });
    expect(sim.state.awaitingProgress).toBe(true);
  });

  test("a stale reading right after a cycle never starts another one", () => {
    const sim = new Sim({ compactAt: false });
    runRestart(sim, 95);
    sim.screen("done");
    sim.stopHook();
    sim.wait(5000); // idle again, but no usage written since the /clear
    expect(sim.sent()).toEqual(["finalize", "/clear", "continue"]);
  });

  test("a failed ctx finalize abandons the cycle and tells the user", () => {
    const sim = new Sim({ compactAt: false, cooldownMs: 30_000 });
    sim.turn(93);
    sim.wait(1250);
    const out = sim.feed({ type: "finalize_done", ok: false, detail: "exit 1" });
    expect(out.some((a) => a.type === "notify" && a.message.includes("exit 1"))).toBe(true);
    expect(sim.state).toMatchObject({ phase: "watching", cycle: null, lastCycle: { ok: false } });
    expect(sim.sent()).toEqual(["finalize"]);
  });
});

describe("keep-working strategy", () => {
  test("every idle runs update, /clear, /init and kickstart, each confirmed before the next", () => {
    const sim = new Sim({ mode: "keep-working", sendInit: true });
    sim.turn(10);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["update notes"]);
    sim.screen("busy");
    sim.wait(500);
    sim.screen("done");
    sim.wait(1250);
    expect(sim.sent()).toEqual(["update notes", "/clear"]);
    sim.screen("prompt");
    sim.wait(1250);
    expect(sim.sent()).toEqual(["update notes", "/clear", "/init"]);
    sim.screen("busy");
    sim.wait(250);
    sim.screen("done");
    sim.wait(1250);
    expect(sim.sent()).toEqual(["update notes", "/clear", "/init", "continue"]);
    sim.screen("busy");
    sim.wait(250);
    expect(sim.state.cycles).toBe(1);
  });

  test.each([
    [{ sendClear: false }, ["update notes", "continue"]],
    [{ updatePrompt: "" }, ["/clear", "continue"]],
    [{ kickstartPrompt: "", updatePrompt: "" }, ["/clear"]],
  ])("steps can be skipped: %j", (over, expected) => {
    const sim = new Sim({ mode: "keep-working", ...over });
    sim.turn(10);
    for (let i = 0; i < 4; i++) {
      sim.wait(1250);
      sim.screen("busy");
      sim.wait(250);
      sim.screen(i % 2 ? "done" : "prompt");
    }
    expect(sim.sent().slice(0, expected.length)).toEqual(expected);
  });
});
