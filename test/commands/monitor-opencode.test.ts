/**
 * `ctx monitor` called by ctx's OpenCode plugin about the cycle in its TUI (`ModIdle`, `ModCycleDone`,
 * with the session's tokens and limit in the payload, no mod figure) and about a compaction
 * (`ModSummary`, `resume.replace_compaction_summary`). The session's store is a small SQLite file
 * with OpenCode's `message` and `part` tables.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { QUIET_IDLE } from "../helpers/idle.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const SID = "ses_0123456789abcdefABCDEF01";
const LIMIT = { context: 60_000, output: 8_000 }; // OpenCode compacts at 52,000: ctx's window
const KICKSTART = "Continue the work from the handoff summary ctx gave you when this session started";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
let db: string;
beforeEach(async () => {
  ({ t, env, project } = projectSandbox({ CTX_RESPAWN_COMPACT_AT: "off", CTX_RESPAWN_RESTART_AT: "90" }));
  delete env.CLAUDE_PROJECT_DIR;
  db = join(t.dir, "opencode.db");
  const d = new Database(db);
  d.run("create table message (id text primary key, session_id text, data text)");
  d.run("create table part (id text primary key, message_id text, session_id text, data text)");
  const row = (table: string, id: string, data: unknown, msg?: string) =>
    msg
      ? d.run("insert into part values (?, ?, ?, ?)", [id, msg, SID, JSON.stringify(data)])
      : d.run(`insert into ${table} values (?, ?, ?)`, [id, SID, JSON.stringify(data)]);
  row("message", "msg_01", { role: "user" });
  row("part", "prt_01", { type: "text", text: "build the parser" }, "msg_01");
  const tokens = { input: 47_988, output: 12, reasoning: 0, cache: { read: 0, write: 0 } };
  row("message", "msg_02", { role: "assistant", modelID: "claude-sonnet-4-5", tokens, time: { completed: 1 } });
  row("part", "prt_02", { type: "text", text: "Step one is done; the parser is next." }, "msg_02");
  d.close();
  // The session as the plugin starts it: tracked, its transcript the store.
  expect((await call("track", payload("session.created", { source: "startup" }))).code).toBe(0);
});
afterEach(() => t.cleanup());

function payload(event: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    client: "opencode",
    hook_event_name: event,
    session_id: SID,
    cwd: project,
    transcript_path: `${db}#${SID}`,
    limit: LIMIT,
    model: "claude-sonnet-4-5",
    ...over,
  });
}
const idle = (used: number, facts: Record<string, unknown> = {}) =>
  payload("ModIdle", {
    transcript_path: undefined,
    tokens: { input: used - 12, output: 12 },
    ctx_idle: { ...QUIET_IDLE, ...facts },
  });
async function call(cmd: string, input: string, extra: Record<string, string> = {}) {
  return runCtx([cmd], { stdin: input, env: { ...env, ...extra } });
}
const answer = (r: { stdout: string }) => (r.stdout === "" ? undefined : JSON.parse(r.stdout));
function record(): { cycles: number; target: string; events: { event: string; detail?: string }[] } {
  const dir = join(project, ".ctx", "state", "respawn");
  return JSON.parse(readFileSync(join(dir, readdirSync(dir).find((n) => /^client-\d+\.json$/.test(n))!), "utf8"));
}

test("with respawn.in_client off the plugin's idle gets no answer and no record", async () => {
  const r = await call("monitor", idle(48_000));
  expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ""]);
});

test("at restart_at of OpenCode's compaction point: the summary is written, the restart is ordered, the record kept", async () => {
  const r = await call("monitor", idle(48_000), { CTX_RESPAWN_IN_CLIENT: "1" });
  expect(r.code).toBe(0);
  const order = answer(r).ctx_cycle;
  expect(order.kind).toBe("restart");
  expect(order.prompt.startsWith(KICKSTART)).toBe(true);
  const pending = JSON.parse(readFileSync(join(project, ".ctx", "state", "respawn-pending.json"), "utf8"));
  const summary = readFileSync(pending.summary_path, "utf8");
  expect(summary).toContain("> build the parser");
  expect(summary).toContain("Step one is done; the parser is next.");
  expect(summary).not.toContain("never answered");
  expect(record()).toMatchObject({ target: "in-client", cycles: 1 });
  expect(record().events.map((e) => e.event)).toEqual(["cycle_start", "step"]);
  expect(record().events[0]!.detail).toBe("restart at 92% (trigger 90%), in the client");
  // The plugin reports the cycle done from the fresh session: the record follows it.
  const fresh = "ses_0123456789abcdefABCDEF02";
  const done = await call("monitor", payload("ModCycleDone", { session_id: fresh, ctx_ok: true }), {
    CTX_RESPAWN_IN_CLIENT: "1",
  });
  expect(answer(done)).toEqual({ ctx_cycle: null });
  expect(record().events.map((e) => e.event)).toEqual(["cycle_start", "step", "cycle_done"]);
});

test("below restart_at, or with a queued prompt, a dialog or a failed turn, the session is left alone", async () => {
  const on = { CTX_RESPAWN_IN_CLIENT: "1" };
  expect(answer(await call("monitor", idle(40_000), on))).toEqual({ ctx_cycle: null });
  for (const facts of [{ queuedPrompt: true }, { dialogOpen: true }, { turnReason: "error" }, { limited: true }])
    expect(answer(await call("monitor", idle(48_000, facts), on))).toEqual({ ctx_cycle: null });
  expect(record().cycles).toBe(0);
});

test("resume.replace_compaction_summary: off, no answer; on, ctx's summary framed as data", async () => {
  const compacting = payload("ModSummary", { transcript_path: undefined });
  const off = await call("monitor", compacting);
  expect([off.code, off.stdout]).toEqual([0, ""]);
  const on = await call("monitor", compacting, { CTX_RESUME_REPLACE_COMPACTION_SUMMARY: "1" });
  const text: string = answer(on).ctx_summary;
  expect(text.startsWith("The context was just compacted; here is the handoff summary")).toBe(true);
  expect(text).toContain("<previous-session-summary>");
  expect(text).toContain("Step one is done; the parser is next.");
  expect(text.trimEnd().endsWith("</previous-session-summary>")).toBe(true);
});
