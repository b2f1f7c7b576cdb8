/**
 * Issue 29, `ctx respawn` before the 5-hour reset, end to end: the real client in a real tmux under the
 * supervisor, ctx track / monitor / resume --hook wired, a status-line payload saying 91 % of the 5-hour
 * window is used with its reset about 40 s ahead. The session climbs above respawn.restart_at: the agent
 * is told to checkpoint once (limits.checkpoint_at 90), and the supervisor holds the cycle back (brake
 * `usage_window`, said once) and starts it only after the reset.
 *
 * The offline client has no plan, so its own status-line payload carries no `rate_limits`: the payload is
 * given to `ctx statusline` as the client would give it (the same path, the same per-user record).
 */
import { expect, test } from "bun:test";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { CLIENT, hookEntry, TEST_MODEL } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { allText, lastToolResults, lastUserText, type LoggedRequest, type Turn } from "./fake-api.ts";
import { explain, usageAt, waitUntil } from "./respawn-harness.ts";

const KICK = "KICKSTART-4417: continue the work from the summary.";
const CHECKPOINT = "USAGE CHECKPOINT: 91% of the 5-hour usage window is used";
const rig = stopAfterEach();

const isKickstart = (req: LoggedRequest) => lastUserText(req).includes(KICK) && lastToolResults(req).length === 0;
const told = (req: LoggedRequest) => allText(req).split("USAGE CHECKPOINT:").length - 1;

test(`e2e respawn (client ${CLIENT.version}) at 91 % of the 5-hour window: checkpoint once, the cycle waits for the reset`, async () => {
  // the brake came ~8 s after the start on both clients, the machine loaded: 40 s leaves it 5 times that
  const resetMs = Math.ceil((Date.now() + 40_000) / 1000) * 1000;
  const arrivals: number[] = [];
  const api = await rig.api((req, i): Turn => {
    arrivals[i] = Date.now();
    if (isKickstart(req))
      return { content: [{ type: "text", text: "Carried on after the reset." }], usage: usageAt(20) };
    if (i === 0)
      return {
        content: [{ type: "tool_use", name: "Bash", input: { command: "echo step-one", description: "step" } }],
        usage: usageAt(92),
      };
    return { content: [{ type: "text", text: "Step one of the greeting module done." }], usage: usageAt(92) };
  });
  const sup = await rig.supervise(
    api,
    "Write the greeting module GOAL-7310",
    {
      CTX_RESPAWN_COMPACT_AT: "off",
      CTX_RESPAWN_RESTART_AT: "90",
      CTX_RESPAWN_KICKSTART_PROMPT: KICK,
      TZ: "UTC",
      NO_COLOR: "1",
    },
    undefined,
    {
      moreHooks: { PostToolUse: hookEntry(`${CTX_BIN} monitor`, "*") },
      // what the status line saw before the session began: 91 % used, the reset about 40 s ahead
      prepare: async (env, sandbox) => {
        const payload = JSON.stringify({
          session_id: "6f1d2b0a-3c4e-4a5b-8c7d-9e0f1a2b3c4d",
          cwd: sandbox.project,
          model: { id: TEST_MODEL, display_name: "Sonnet 4.5" },
          context_window: { context_window_size: 200000, used_percentage: 5, current_usage: { input_tokens: 10000 } },
          rate_limits: { five_hour: { used_percentage: 91, resets_at: resetMs / 1000 } },
        });
        const line = await runCtx(["statusline"], { env, stdin: payload, cwd: sandbox.project });
        expect(line.stdout).toContain("5h 91% · resets ");
      },
    },
  );
  const describe = () => explain(sup);
  // Held back: the brake is recorded while the reset is still ahead.
  const brake = await waitUntil(
    () => sup.record()?.events?.find((e: any) => e.event === "brake" && e.detail === "usage_window"),
    90_000,
    describe,
  );
  expect(Date.parse(brake.at)).toBeLessThan(resetMs);
  // Then the cycle, and the fresh session's kickstart.
  await waitUntil(() => api.mainRequests().some(isKickstart), 180_000, describe);
  const rec = sup.record();
  const events = rec.events as { event: string; at: string; detail?: string }[];
  const names = events.map((e) => e.event);
  const starts = events.filter((e) => e.event === "cycle_start");
  expect(starts.length).toBe(1);
  // the order: the brake naming usage_window, then (after the reset) the cycle
  expect(names.indexOf("brake")).toBeLessThan(names.indexOf("cycle_start"));
  expect(events.filter((e) => e.event === "brake").map((e) => e.detail)).toEqual(["usage_window"]);
  expect(Date.parse(starts[0]!.at)).toBeGreaterThanOrEqual(resetMs);
  const main = api.mainRequests();
  const kick = main.findIndex(isKickstart);
  expect(arrivals[kick]!).toBeGreaterThanOrEqual(resetMs);
  // nothing was typed between the session going idle and the reset: every earlier request came before the brake
  expect(arrivals.slice(0, kick).every((t) => t <= Date.parse(brake.at))).toBe(true);
  // the supervisor said why it waited, once
  const clock = new Date(resetMs).toISOString().slice(11, 16);
  const said = `waiting for the 5-hour usage window to reset at ${clock} (91% used): a cycle started now could not finish before it`;
  expect(sup.log().split(said).length - 1).toBe(1);
  // the checkpoint reached the agent once: in the request after the tool call, and after it only as history
  const before = main.slice(0, kick);
  const first = before.findIndex((r) => told(r) > 0);
  expect(first).toBeGreaterThanOrEqual(0);
  expect(allText(before[first]!)).toContain(`${CHECKPOINT} (it resets at ${clock}).`);
  for (const r of before.slice(first)) expect(told(r)).toBe(1);
  // the fresh session after the reset is not told again: the window it was about has closed
  for (const r of main.slice(kick)) expect(told(r)).toBe(0);
  expect(allText(main[kick]!)).toContain("GOAL-7310"); // the summary carried the goal into the fresh session
}, 300_000);
