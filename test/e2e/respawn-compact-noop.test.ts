/**
 * `ctx respawn` end to end with the real client: a `/compact` that leaves no
 * newer usage reading must not leave the supervisor idle at 91 % forever: after
 * the wait, the latest reading decides and the full cycle runs. Client 2.1.197
 * refuses to compact one exchange ("Not enough messages to compact."); 2.1.328
 * compacts it, so the fake API fails the compaction request (a 400 the client
 * does not retry) and the compaction changes nothing on both clients.
 */
import { expect, test } from "bun:test";
import { lastToolResults, lastUserText, type Turn } from "./fake-api.ts";
import { stopAfterEach } from "./client-pane.ts";
import { explain, usageAt, waitUntil } from "./respawn-harness.ts";

const KICK = "KICKSTART-4410: continue from the summary.";
const rig = stopAfterEach();

test("e2e respawn: a /compact that leaves usage at 91 % is followed by the full cycle (finalize, /clear, kickstart)", async () => {
  const api = await rig.api({
    main: (req): Turn =>
      lastUserText(req).includes(KICK) && !lastToolResults(req).length
        ? { content: [{ type: "text", text: "Resumed." }], usage: usageAt(20) }
        : { content: [{ type: "text", text: "Done with the first part." }], usage: usageAt(91) },
    side: () => undefined,
    compact: () => ({
      content: [],
      error: { status: 400, type: "invalid_request_error", message: "compaction refused by the e2e script" },
    }),
  });
  const sup = await rig.supervise(api, "Do the first part", { CTX_RESPAWN_KICKSTART_PROMPT: KICK });
  const describe = () => explain(sup);
  const rec = await waitUntil(
    () => {
      const r = sup.record();
      return r?.cycles >= 2 && r;
    },
    120_000,
    describe,
  );
  const steps = rec.events.filter((e: any) => e.event === "step").map((e: any) => e.detail);
  expect(steps).toEqual(["compact", "kickstart", "finalize", "clear", "kickstart"]);
  const progress = rec.events.find((e: any) => e.event === "progress");
  // the Next: prompt after the compaction gives a fresh reading: it is still 91 %, so the full cycle follows
  expect(progress.detail).toContain("91% after compact (trigger 85%");
  // The kickstart reached the server: the new session continues.
  await waitUntil(() => api.mainRequests().some((r) => lastUserText(r).includes(KICK)), 20_000, describe);
}, 180_000);
