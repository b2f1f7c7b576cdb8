/** What the machine hands the driver to carry out, ready to use: the hand-over, the text to type, the messages. */
import { describe, expect, test } from "bun:test";
import { oneLine } from "../../../src/core/respawn/cycle.ts";
import type { RespawnAction } from "../../../src/core/respawn/types.ts";
import { Sim } from "./sim.ts";

/** The actions that reach the pane or the hand-over file, in order. */
function carried(actions: RespawnAction[]): string[] {
  return actions.flatMap((a) =>
    a.type === "handover" ? [`handover:${a.summaryPath}`] : a.type === "send_text" ? [a.text] : [],
  );
}

describe("the hand-over of a restart cycle", () => {
  test("the summary ctx finalize wrote is recorded, then handed over just before /clear", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(93);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["finalize"]);
    const out = sim.feed({ type: "finalize_done", ok: true, summaryPath: "/p/.ctx/sessions/summary-c-1.md" });
    expect(out.filter((a) => a.type === "record").map((a) => a.type === "record" && a.event)).toEqual([
      "summary",
      "step_done",
      "step",
    ]);
    expect(out.find((a) => a.type === "record" && a.event === "summary")).toMatchObject({
      detail: "/p/.ctx/sessions/summary-c-1.md",
    });
    expect(carried(out)).toEqual(["handover:/p/.ctx/sessions/summary-c-1.md", "/clear"]);
    sim.screen("prompt");
    sim.wait(1500);
    expect(carried(sim.actions)).toEqual(["handover:/p/.ctx/sessions/summary-c-1.md", "/clear", "continue"]);
  });

  test("a finalize that gave no summary path hands nothing over", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(93);
    sim.wait(1250);
    const out = sim.feed({ type: "finalize_done", ok: true });
    expect(carried(out)).toEqual(["/clear"]);
    expect(sim.events()).not.toContain("summary");
  });

  test("keep-working's /clear follows no finalize: no hand-over", () => {
    const sim = new Sim({ mode: "keep-working", updatePrompt: "" });
    sim.turn(10);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["/clear"]);
    expect(sim.actions.some((a) => a.type === "handover")).toBe(false);
  });

  test("a failed finalize hands nothing over and sends no /clear", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(93);
    sim.wait(1250);
    sim.feed({ type: "finalize_done", ok: false, detail: "exit 1" });
    expect(carried(sim.actions)).toEqual([]);
  });
});

describe("typed text", () => {
  test("a prompt over several lines is typed as one line (Enter would submit half of it)", () => {
    expect(oneLine("Continue.\n  Read PLAN.md\n\nthen work")).toBe("Continue. Read PLAN.md then work");
    const sim = new Sim({ mode: "keep-working", updatePrompt: "update\nthe notes", sendClear: false });
    sim.turn(10);
    sim.wait(1250);
    expect(sim.sent()).toEqual(["update the notes"]);
  });
});

describe("notify", () => {
  test("the machine's messages are the bare text: the driver shows them as `ctx respawn: <message>`", () => {
    const sim = new Sim({ compactAt: false });
    sim.turn(93);
    sim.wait(1250);
    const out = sim.feed({ type: "finalize_done", ok: false, detail: "exit 1" });
    expect(out.find((a) => a.type === "notify")).toEqual({
      type: "notify",
      message: "cycle abandoned: ctx finalize failed: exit 1",
    });
  });
});
