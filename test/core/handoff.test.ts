import { describe, expect, test } from "bun:test";
import { warningText } from "../../src/core/debounce.ts";
import { handoffForAgent, handoffForUser } from "../../src/core/handoff.ts";
import { levelMessage } from "../../src/core/track/levels.ts";

const written = { state: "written", path: "/p/.ctx/sessions/summary-chain-s1-20260101-120000.md" } as const;
const failed = { state: "failed", reason: "ENOSPC: no space left on device" } as const;

describe("no message claims a summary that does not exist", () => {
  test("the agent: being written, written with its path, or failed with the reason", () => {
    expect(handoffForAgent({ state: "writing" })).toBe(
      "ctx is writing the handoff summary now, so the work can be continued in a fresh context.",
    );
    expect(handoffForAgent(written)).toContain(`The handoff summary is written (${written.path})`);
    expect(handoffForAgent(failed)).toStartWith("The handoff summary could not be written (ENOSPC: no space");
    expect(handoffForAgent(failed)).toContain("task list");
  });
  test("CONTEXT CRITICAL ends with the handoff's state; a subagent's (no handoff) names no summary", () => {
    const writing = warningText("critical", 80, 20, { state: "writing" });
    expect(writing).toEndWith(handoffForAgent({ state: "writing" }));
    expect(writing).not.toContain("is written");
    expect(warningText("auto_pause", 92, 8, failed)).toEndWith(handoffForAgent(failed));
    expect(warningText("critical", 80, 20)).not.toMatch(/summary/);
    expect(warningText("warning", 66, 34, written)).not.toMatch(/summary/);
  });
  test("the user's CRITICAL message says the same; WARNING says nothing of a summary", () => {
    expect(levelMessage("critical", 76, 152000, 200000, { state: "writing" })).toBe(
      "ctx: context 76% used (152k/200k tokens), CRITICAL. The agent is told to finish its step and leave the " +
        "work resumable. Handoff: ctx finalize is writing the handoff summary now. " +
        "You: when the agent has finished its step, type /clear; the fresh session starts from the summary " +
        "(or quit and run 'ctx resume --latest' in this terminal).",
    );
    // the path planned by the crossing's finalize, before the summary exists: the exact command
    const planned = { state: "writing", path: "/p/.ctx/sessions/summary-chain-a-20261201-120000.md" } as const;
    expect(levelMessage("critical", 76, 152000, 200000, planned)).toContain(
      `writing the handoff summary now (${planned.path}). You: when the agent has finished its step, type /clear; ` +
        `the fresh session starts from the summary (or quit and run 'ctx resume ${planned.path}').`,
    );
    expect(levelMessage("critical", 76, 152000, 200000, written)).toContain(
      `Handoff: the handoff summary is written: ${written.path}. You:`,
    );
    expect(levelMessage("auto_pause", 91, 182000, 200000, failed)).toContain(handoffForUser(failed));
    expect(levelMessage("warning", 66, 132000, 200000, written)).not.toMatch(/summary/);
    expect(levelMessage("critical", 76, 152000, 200000)).not.toMatch(/summary/);
  });
});
