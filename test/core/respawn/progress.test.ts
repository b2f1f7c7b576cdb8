/** A compaction that leaves no fresh reading behind (refused, or a no-op): the latest reading decides after a bounded wait. */
import { describe, expect, test } from "bun:test";
import { resolveConfig } from "../../../src/core/config.ts";
import { PROGRESS_WAIT_EXTRA_MS, settingsFromConfig } from "../../../src/core/respawn/settings.ts";
import { Sim } from "./sim.ts";

/** A /compact the client refuses: the screen changes (its message), no busy, no new reading, back at the prompt. */
function refusedCompact(sim: Sim): void {
  sim.screen("prompt"); // "Not enough messages to compact." replaces the completion line
  sim.wait(1250);
  sim.screen("done", true);
  sim.wait(1250);
}

describe("no fresh reading after a compaction", () => {
  test("a refused /compact at 91 %: after progressWaitMs the latest reading counts, and the full cycle runs", () => {
    const sim = new Sim();
    sim.turn(91);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["/compact keep state"]);
    refusedCompact(sim);
    expect(sim.state.cycles).toBe(1);
    expect(sim.state.awaitingProgress).toBe(true);
    const ended = sim.state.lastCycle!.endedAt;
    sim.wait(sim.state.settings.progressWaitMs - (sim.now - ended) - 250); // just short of the wait: still waiting
    expect(sim.sent()).toEqual(["/compact keep state"]);
    expect(sim.state.awaitingProgress).toBe(true);
    sim.wait(500);
    expect(sim.state.awaitingProgress).toBe(false);
    expect(sim.state.noProgress).toBe(1);
    expect(sim.sent()).toEqual(["/compact keep state", "finalize"]);
    const progress = sim.actions.find((a) => a.type === "record" && a.event === "progress");
    expect(progress).toMatchObject({ detail: expect.stringContaining("91% after compact") });
    // The full cycle carries on as usual: /clear, kickstart.
    sim.feed({ type: "finalize_done", ok: true });
    sim.screen("prompt");
    sim.wait(1500);
    sim.screen("busy");
    sim.wait(250);
    expect(sim.sent()).toEqual(["/compact keep state", "finalize", "/clear", "continue"]);
    expect(sim.state.lastCycle?.kind).toBe("restart");
  });

  test("a compaction that worked: its reading (written before the step was confirmed) is the latest, so nothing more happens", () => {
    const sim = new Sim();
    sim.turn(91);
    sim.wait(1250);
    sim.screen("busy");
    sim.wait(1000);
    sim.usage(30); // the compact boundary's post-compaction size, before the idle is confirmed
    sim.screen("done");
    sim.wait(1250);
    expect(sim.state.awaitingProgress).toBe(true);
    sim.wait(60_000);
    expect(sim.state.awaitingProgress).toBe(false);
    expect(sim.state.noProgress).toBe(0);
    expect(sim.sent()).toEqual(["/compact keep state"]);
  });

  test("between compact_at and restart_at after a no-op compaction: no restart and no second /compact", () => {
    const sim = new Sim();
    sim.turn(87);
    sim.wait(1250);
    refusedCompact(sim);
    sim.wait(120_000);
    expect(sim.state.noProgress).toBe(1);
    expect(sim.sent()).toEqual(["/compact keep state"]);
  });

  test("a fresh reading within the wait decides, as before (no fallback record)", () => {
    const sim = new Sim();
    sim.turn(91);
    sim.wait(1250);
    refusedCompact(sim);
    sim.wait(1000);
    sim.usage(92); // e.g. the user typed something: a fresh reading, still high
    expect(sim.state.awaitingProgress).toBe(false);
    expect(sim.state.noProgress).toBe(1);
    sim.screen("done", true);
    sim.stopHook();
    sim.wait(1500);
    expect(sim.sent()).toEqual(["/compact keep state", "finalize"]);
    expect(
      sim.actions.some(
        (a) => a.type === "record" && a.event === "progress" && (a.detail ?? "").includes("latest decides"),
      ),
    ).toBe(false);
  });

  test("after a restart cycle the old session's reading is never reused: no second cycle without a fresh reading", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(95);
    sim.wait(1500);
    sim.feed({ type: "finalize_done", ok: true });
    sim.screen("prompt");
    sim.wait(1500);
    sim.screen("busy");
    sim.wait(250);
    sim.screen("done");
    sim.stopHook(); // the kickstart's turn ends, its reading not in yet
    sim.wait(120_000);
    expect(sim.sent()).toEqual(["finalize", "/clear", "continue"]);
    expect(sim.state.awaitingProgress).toBe(true);
  });
});

test("settingsFromConfig: the wait for a fresh reading after a compaction is the quiet period plus 5 s", () => {
  expect(settingsFromConfig(resolveConfig([])).progressWaitMs).toBe(2000 + PROGRESS_WAIT_EXTRA_MS);
});
