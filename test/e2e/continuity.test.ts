/**
 * Issue 10 end to end: a chain of sessions under `ctx respawn start` (real
 * client, real tmux, fake API) keeps the original goal and every open task
 * through three unattended cycles.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  allText,
  lastToolResults,
  lastUserText,
  startFakeApi,
  type FakeApi,
  type LoggedRequest,
  type Turn,
} from "./fake-api.ts";
import { explain, superviseSession, usageAt, waitUntil, type Supervised } from "./respawn-harness.ts";

const GOAL = "GOAL-8841: build the alpaca exporter";
const KICK = "KICKSTART-5120: continue the work from the summary.";
let api: FakeApi | undefined;
let sup: Supervised | undefined;
afterEach(async () => {
  await sup?.cleanup();
  await api?.stop();
  api = sup = undefined;
});

const isKickstart = (req: LoggedRequest) => lastUserText(req).includes(KICK) && lastToolResults(req).length === 0;
const tool = (name: string, input: Record<string, unknown>, pct = 10): Turn => ({
  content: [{ type: "tool_use", name, input }],
  usage: usageAt(pct),
});
const task = (subject: string) => tool("TaskCreate", { subject, description: subject, activeForm: subject });

test("e2e continuity: three unattended respawn cycles keep the goal and every open task", async () => {
  let kicks = 0;
  // Session 1: three tasks, the first completed, then the context fills up.
  const first: Turn[] = [
    task("Write the parser"),
    task("Write the exporter"),
    task("Write the docs"),
    tool("TaskUpdate", { taskId: "1", status: "completed" }),
    { content: [{ type: "text", text: "Parser done because the format is CSV; exporter next." }], usage: usageAt(91) },
  ];
  api = await startFakeApi((req, i): Turn => {
    if (isKickstart(req)) {
      kicks++;
      // Each fresh session does one step at low usage...
      return tool("Bash", { command: `echo step-${kicks} > step-${kicks}.txt`, description: "step" }, 20);
    }
    if (kicks === 0) return first[Math.min(i, first.length - 1)]!;
    // ...and fills up again (three cycles), then stays low.
    return { content: [{ type: "text", text: `Step ${kicks} done.` }], usage: usageAt(kicks < 3 ? 92 : 30) };
  });
  sup = await superviseSession(api, GOAL, {
    CTX_RESPAWN_COMPACT_AT: "off",
    CTX_RESPAWN_RESTART_AT: "90",
    CTX_RESPAWN_KICKSTART_PROMPT: KICK,
  });
  const rec = await waitUntil(
    () => sup!.record()?.cycles >= 3 && sup!.record(),
    200_000,
    () => explain(sup),
  );
  await waitUntil(
    () => api!.mainRequests().filter(isKickstart).length >= 3,
    30_000,
    () => explain(sup),
  );

  const kickReqs = api.mainRequests().filter(isKickstart);
  expect(kickReqs).toHaveLength(3);
  for (const req of kickReqs) {
    const text = allText(req);
    // The first request of every fresh session: the goal and every open task, never the completed one as open.
    expect(text).toContain(`> ${GOAL}`);
    expect(text).toMatch(/- \[ \] #\d+ Write the exporter/);
    expect(text).toMatch(/- \[ \] #\d+ Write the docs/);
    expect(text).not.toMatch(/- \[ \] #\d+ Write the parser/);
    expect(text).toMatch(/- \[x\] #\d+ Write the parser/);
  }
  const summaries = rec.events.filter((e: any) => e.event === "summary").map((e: any) => e.detail as string);
  expect(summaries.length).toBeGreaterThanOrEqual(3);
  // One chain, one task id: every summary carries the same one in its name.
  const chainOf = (p: string) => /summary-(.+)-\d{8}-\d{6}\.md$/.exec(p)![1];
  expect(new Set(summaries.map(chainOf)).size).toBe(1);
  expect(chainOf(summaries[0]!)).toMatch(/^chain-[0-9a-f]{8}$/);
  const third = readFileSync(summaries[2]!, "utf8");
  expect(third).toContain(`## Goal\n> ${GOAL}`);
  expect(third).toContain("Sessions (3, oldest first)");
  expect(third).toMatch(/- Bash echo step-2 > step-2\.txt \(this session\)/);
  expect(third).toContain("Parser done because the format is CSV");
  expect(kickReqs[2] && allText(kickReqs[2])).toContain("step-2");
  console.log(`third summary: ${third.length} characters (${summaries[2]})`);
}, 300_000);
