/**
 * Issue 29: a compaction ctx did not start. The real client's default 1M window fills past its own
 * auto-compact point (967k: window − 20k − 13k); the client compacts by itself (its compaction request
 * answered by the fake API) and goes on. ctx records it as `auto` with the level it left, the ladder
 * starts over, and the summary written after it still names the goal from before it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLIENT, CLIENTS } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { bashTurn, type Script } from "./fake-api.ts";
import { compactionEvent } from "./project-state.ts";

const rig = stopAfterEach();

const GOAL = "Port the billing report to the new invoices API";

// 2.1.197 does not compact its 1M window at 975k here (it compacts at the hard limit): the newest client only
test.skipIf(CLIENT.version !== CLIENTS.newest.version)(
  `e2e auto-compaction (${CLIENT.version}, 1M window): recorded as auto, the level reset, the goal kept`,
  async () => {
    const script: Script = {
      main: [
        bashTurn("echo one", 140_000), // WARNING under the default 200k budget
        bashTurn("echo two", 975_000), // past the client's own auto-compact point (967k)
        bashTurn("echo three", 20_000), // after the compaction: back to ok
        {
          content: [{ type: "text", text: "Done for now." }],
          usage: { input_tokens: 100, cache_read_input_tokens: 20_200 },
        },
      ],
      compact: () => ({
        content: [
          {
            type: "text",
            text: `<summary>\n1. Primary Request and Intent:\n   ${GOAL}.\n\n2. Pending Tasks:\n   - run the last step\n</summary>`,
          },
        ],
        usage: { input_tokens: 200, output_tokens: 60 },
      }),
    };
    // no --model: the client's default, a 1M window
    const { api, sandbox, pane: tmux } = await rig.installed(script, { model: null, height: 60 });
    await tmux.sendText(GOAL);
    await tmux.waitFor((s) => s.includes("Done for now."), 120_000);
    expect(api.compactRequests().length).toBeGreaterThanOrEqual(1);
    const root = join(sandbox.project, ".ctx");
    // the compaction event: trigger auto, the level it left, the debounce reset, and the tokens after it
    const event = await compactionEvent(sandbox.project);
    expect(event).toMatchObject({ trigger: "auto", level_before: "auto_pause", debounce_reset: true });
    expect(event!.tokens_before).toBeGreaterThanOrEqual(975_000);
    expect(event!.tokens_after as number).toBeLessThan(100_000);
    // the level started over
    const sid = event!.session_id as string;
    const state = JSON.parse(readFileSync(join(root, "state", "sessions", `${sid}.json`), "utf8"));
    expect(state.threshold_reached).toBeNull();
    expect(state.compactions).toBe(1);
    // the summary written after the compaction still names the goal from before it
    const fin = await runCtx(["finalize", "--session", sid], { env: sandbox.env, cwd: sandbox.project });
    expect(fin.code).toBe(0);
    const md = readFileSync(fin.stdout.trim(), "utf8");
    expect(md).toContain(`## Goal\n> ${GOAL}`);
    expect(md).toMatch(/1 compaction: 1 auto\)/);
    console.log(`client ${CLIENT.version}: ${md.split("\n").find((l) => l.includes("Context at handoff"))}`);
  },
  180_000,
);
