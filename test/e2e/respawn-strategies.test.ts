/**
 * `ctx respawn` strategies end to end with the real client in a private tmux:
 * compaction at compact_at, and keep-working driven by the screen alone (no
 * Stop hook: the completion line, whatever verb the client picks this time).
 */
import { expect, test } from "bun:test";
import { allText, lastToolResults, lastUserText, type Turn } from "./fake-api.ts";
import { stopAfterEach } from "./client-pane.ts";
import { explain, usageAt, waitUntil } from "./respawn-harness.ts";

const rig = stopAfterEach();

test("e2e respawn: at compact_at the idle session is compacted with the configured instructions", async () => {
  const api = await rig.api({
    main: (_req, i): Turn =>
      i < 3
        ? {
            content: [{ type: "tool_use", name: "Bash", input: { command: `echo step-${i}`, description: "migrate" } }],
            usage: usageAt(40 + 10 * i),
          }
        : { content: [{ type: "text", text: "Half of the migration is done." }], usage: usageAt(87) },
    side: (req) =>
      allText(req).includes("KEEP-STATE-5521")
        ? {
            content: [{ type: "text", text: "<summary>Migration half done; next: the other half.</summary>" }],
            usage: { input_tokens: 5000, output_tokens: 50 },
          }
        : undefined,
  });
  const sup = await rig.supervise(api, "Migrate the database layer", {
    CTX_RESPAWN_COMPACT_PROMPT: "/compact KEEP-STATE-5521 keep the task state",
  });
  const describe = () => explain(sup);
  const rec = await waitUntil(
    () => {
      const r = sup.record();
      return r?.cycles >= 1 && r;
    },
    90_000,
    describe,
  );
  // after the compaction the agent is sent on with its Next: prompt, not left idle
  expect(rec.events.filter((e: any) => e.event === "step").map((e: any) => e.detail)).toEqual(["compact", "kickstart"]);
  expect(rec.events.find((e: any) => e.event === "cycle_start").detail).toContain("compact at 87%");
  // The client ran the compaction with our instructions.
  expect(api.requests.some((r) => r.method === "POST" && allText(r).includes("KEEP-STATE-5521"))).toBe(true);
  // the cycle ends once the prompt is typed; the client sends it a moment later (later still on a loaded machine)
  const next = () => api.requests.some((r) => r.method === "POST" && allText(r).includes("Next: continue the work"));
  expect(await waitUntil(next, 60_000, describe)).toBe(true);
  // A compaction, not a restart: no finalize, no /clear.
  await Bun.sleep(3000);
  expect(sup.record().events.some((e: any) => e.detail === "finalize" || e.detail === "clear")).toBe(false);
}, 150_000);

test("e2e respawn: keep-working without a Stop hook reads the completion line (any verb) and the hourly cap stops it", async () => {
  const KICK = "KEEP-GOING-9034 next item";
  const api = await rig.api((req, i): Turn => {
    if (lastToolResults(req).length)
      return { content: [{ type: "text", text: `Item ${i} done.` }], usage: usageAt(10) };
    if (lastUserText(req).includes(KICK))
      return {
        content: [{ type: "tool_use", name: "Bash", input: { command: `echo item-${i}`, description: "work" } }],
        usage: usageAt(10),
      };
    return { content: [{ type: "text", text: "First item done." }], usage: usageAt(5) };
  });
  const sup = await rig.supervise(
    api,
    "Work through the list",
    {
      CTX_RESPAWN_MODE: "keep-working",
      CTX_RESPAWN_UPDATE_PROMPT: "off",
      CTX_RESPAWN_SEND_CLEAR: "false",
      CTX_RESPAWN_KICKSTART_PROMPT: KICK,
      CTX_RESPAWN_MAX_CYCLES_PER_HOUR: "2",
    },
    [],
  );
  const describe = () => explain(sup);
  const rec = await waitUntil(
    () => {
      const r = sup.record();
      return r?.brake === "max_cycles_per_hour" && r;
    },
    120_000,
    describe,
  );
  expect(rec.cycles).toBe(2);
  const idles = rec.events.filter((e: any) => e.event === "idle").map((e: any) => e.detail);
  expect(idles.length).toBeGreaterThanOrEqual(3);
  expect(idles.every((d: string) => d === "completion")).toBe(true);
  expect(rec.machine.screen.completion).toMatch(/^✻ \S+ for \d/);
  await Bun.sleep(3000);
  expect(api.mainRequests().filter((r) => lastUserText(r).includes(KICK) && !lastToolResults(r).length).length).toBe(2);
}, 180_000);
