/**
 * `ctx respawn` end to end: the real Claude Code client in a real tmux (private
 * server through TMUX_TMPDIR), the fake API scripted to climb past the trigger,
 * and ctx track / finalize / resume --hook wired as in a real install.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { PaneSession } from "../../src/io/respawn/binding.ts";
import { CTX_BIN } from "../helpers/ctx.ts";
import { allText, lastToolResults, lastUserText, type LoggedRequest, type Turn } from "./fake-api.ts";
import { stopAfterEach } from "./client-pane.ts";
import { explain, usageAt, waitUntil } from "./respawn-harness.ts";

const KICK = "KICKSTART-7731: continue the work from the summary.";
const rig = stopAfterEach();

const isKickstart = (req: LoggedRequest) => lastUserText(req).includes(KICK) && lastToolResults(req).length === 0;

test("e2e respawn: two full cycles unattended (finalize, /clear, summary injected, kickstart, session continues)", async () => {
  let kicks = 0;
  const api = await rig.api((req, i): Turn => {
    if (i === 0)
      return { content: [{ type: "text", text: "Step one of the greeting task done." }], usage: usageAt(91) };
    if (isKickstart(req)) {
      kicks++;
      return {
        content: [
          { type: "tool_use", name: "Bash", input: { command: `echo continuing-${kicks}`, description: "continue" } },
        ],
        usage: usageAt(20),
      };
    }
    // The tool result of the kickstart turn: climb past the trigger again (twice), then stay low.
    return { content: [{ type: "text", text: `Continued (${kicks}).` }], usage: usageAt(kicks < 2 ? 92 : 30) };
  });
  const sup = await rig.supervise(api, "Write the greeting module", {
    CTX_RESPAWN_COMPACT_AT: "off",
    CTX_RESPAWN_RESTART_AT: "90",
    CTX_RESPAWN_KICKSTART_PROMPT: KICK,
  });
  const describe = () => explain(sup);
  const rec = await waitUntil(
    () => {
      const r = sup.record();
      return r?.cycles >= 2 && r;
    },
    150_000,
    describe,
  );
  // The session after the second cycle carried on: its tool result reached the server.
  await waitUntil(
    () => api.mainRequests().some((r) => lastToolResults(r).some((t) => t.text.includes("continuing-2"))),
    30_000,
    describe,
  );

  const kickReqs = api.mainRequests().filter(isKickstart);
  expect(kickReqs.length).toBe(2);
  const summaries = rec.events.filter((e: any) => e.event === "summary").map((e: any) => e.detail as string);
  expect(summaries.length).toBe(2);
  for (const [n, req] of kickReqs.entries()) {
    const text = allText(req);
    expect(text.includes("SessionStart hook additional context")).toBe(true);
    // The summary written by this cycle's ctx finalize is what the new session received.
    const summary = readFileSync(summaries[n]!, "utf8");
    const heading = summary.split("\n").find((l) => l.startsWith("# "))!;
    expect(text.includes(heading)).toBe(true);
    // The first summary carries the user's request; the second, the work of the session the first kickstart started.
    expect(text.includes(n === 0 ? "> Write the greeting module" : "continuing-1")).toBe(true);
    // A fresh context after /clear: no assistant message from the old session is replayed.
    expect(req.body.messages.filter((m: any) => m.role === "assistant")).toEqual([]);
  }
  const steps = rec.events.filter((e: any) => e.event === "step").map((e: any) => e.detail);
  expect(steps).toEqual(["finalize", "clear", "kickstart", "finalize", "clear", "kickstart"]);
  expect(rec.phase).not.toBe("halted");

  // ctx status sees the supervisor through the supervised session's index entry.
  await waitUntil(() => sup.record()?.session_id, 10_000, describe);
  // It is bound to the session whose Claude Code process runs in its pane (claude_pid recorded by ctx track).
  const bound = JSON.parse(
    readFileSync(`${sup.sandbox.project}/.ctx/state/sessions/${sup.record().session_id}.json`, "utf8"),
  );
  const panePid = Number(
    (await sup.tmux("display-message", "-p", "-t", sup.record().target, "#{pane_pid}")).out.trim(),
  );
  expect(new PaneSession(`${sup.sandbox.project}/.ctx`, panePid, Date.now).runsInPane(bound.claude_pid)).toBe(true);
  await Bun.sleep(1200);
  // The supervisor's phase, as `respawn:<phase>` in the table. It may move on (idle, confirming_idle) between
  // ctx status's read and the record's, so the two are read until they agree: a phase ctx status made up never would.
  let rows: any;
  let row: any;
  let phase = "";
  for (let i = 0; i < 50; i++) {
    const status = Bun.spawnSync([CTX_BIN, "status", "--json", "--all"], { cwd: sup.sandbox.project, env: sup.env });
    rows = JSON.parse(status.stdout.toString());
    row = (Array.isArray(rows) ? rows : rows.sessions).find((r: any) => r.session_id === sup.record().session_id);
    phase = sup.record().phase;
    if (row?.respawn === phase) break;
    await Bun.sleep(200);
  }
  expect(row.respawn).toBe(phase);
  // the freshly respawned session shows its own tokens (not 0/0); the sessions it replaced show as ended
  expect({ tokens: row.used_tokens > 0, window: row.window_size, ended: row.ended }).toEqual({
    tokens: true,
    window: 200_000,
    ended: false,
  });
  const replaced = (Array.isArray(rows) ? rows : rows.sessions).filter((r: any) => r.session_id !== row.session_id);
  expect(replaced.map((r: any) => [r.ended, r.stale])).toEqual([
    [true, false],
    [true, false],
  ]);
  const entry = JSON.parse(readFileSync(`${sup.env.XDG_STATE_HOME}/ctx/sessions/${row.session_id}.json`, "utf8"));
  expect(entry.respawn).toMatchObject({
    name: "e2e",
    cycles: 2,
    state_path: expect.stringContaining("state/respawn/e2e.json"),
  });

  // stop ends supervision and leaves the pane running.
  const stop = Bun.spawn([CTX_BIN, "respawn", "stop", "--name", "e2e"], {
    cwd: sup.sandbox.project,
    env: sup.env,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await stop.exited).toBe(0);
  expect(await sup.proc.exited).toBe(0);
  expect(sup.record().phase).toBe("stopped");
  expect((await sup.tmux("has-session", "-t", "e2e")).code).toBe(0);
}, 240_000);

test("e2e respawn: the no-progress breaker stops an endless loop when usage stays high", async () => {
  const api = await rig.api(
    (req): Turn => ({
      content: [{ type: "text", text: isKickstart(req) ? "Resumed, still huge." : "Working." }],
      usage: usageAt(93),
    }),
  );
  const sup = await rig.supervise(api, "Refactor everything", {
    CTX_RESPAWN_COMPACT_AT: "off",
    CTX_RESPAWN_KICKSTART_PROMPT: KICK,
  });
  const describe = () => explain(sup);
  const rec = await waitUntil(
    () => {
      const r = sup.record();
      return r?.phase === "halted" && r;
    },
    150_000,
    describe,
  );
  expect(rec.cycles).toBe(2);
  expect(rec.brake).toBe("no_progress");
  expect(rec.reason).toContain("cycling stopped");
  await Bun.sleep(3000);
  expect(api.mainRequests().filter(isKickstart).length).toBe(2);
  expect(sup.record().cycles).toBe(2);
}, 240_000);
