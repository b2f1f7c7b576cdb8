/**
 * The cycle inside OpenCode's TUI (`respawn.in_client`) with the real opencode 1.18.33 and ctx's
 * plugin, against the fake Anthropic API. tmux only shows the TUI: the test types the first prompt
 * and nothing after it. At the idle turn's end at `respawn.restart_at` ctx writes the summary from
 * the SQLite store, the plugin opens a new session in the TUI and sends it the continue prompt, and
 * that session's first request carries ctx's summary; a draft typed meanwhile is not sent and stays
 * in the box; at compact_at OpenCode compacts with ctx's instructions; a second cycle is held by the
 * hourly cap.
 * And `opencode.replace_compaction_summary`: OpenCode keeps ctx's summary as its compaction summary.
 * The model's limit is 60,000 / 8,000: OpenCode compacts at 52,000, the window ctx measures against.
 */
import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { allText, lastUserText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
import { HAVE_OPENCODE, OPENCODE_BIN, openCodeEnv, openCodeWorld, runOpenCode } from "./opencode.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

/** A run takes seconds alone; minutes on a loaded machine: the test counts what happened, not time. */
const OPENCODE_TIMEOUT_MS = 600_000;
const LIMIT = { context: 60_000, output: 8_000 };
const KICKSTART = "Continue the work from the handoff summary ctx gave you when this session started";
const IN_CLIENT = { CTX_RESPAWN_IN_CLIENT: "1", CTX_RESPAWN_COMPACT_AT: "off", CTX_RESPAWN_RESTART_AT: "90" };

let sb: ProjectSandbox | undefined;
let api: FakeApi | undefined;
let pane: TmuxSession | undefined;
afterEach(async () => {
  await pane?.kill().catch(() => {});
  await api?.stop();
  sb?.t.cleanup();
  sb = api = pane = undefined;
});

/** A text answer at `used` tokens (input + 12 output). */
const answer = (text: string, used: number): Turn => ({
  content: [{ type: "text", text }],
  usage: { input_tokens: used - 12, output_tokens: 12 },
});

/** A sandbox with ctx's plugin installed, `extra` in the environment, the fake API answering `script`. */
async function world(script: (i: number) => Turn, extra: Record<string, string>) {
  sb = projectSandbox(extra);
  const env = openCodeEnv(sb.env);
  delete env.CLAUDE_PROJECT_DIR; // OpenCode's directory decides the project, as for a user
  api = await startFakeApi((_req, i) => script(i));
  openCodeWorld(env, sb.project, api.url, LIMIT);
  expect((await runCtx(["install", "--opencode"], { env, cwd: sb.project })).code).toBe(0);
  return { env, project: sb.project };
}

/** The TUI in tmux, then the one prompt the test types: the keystrokes it sends, counted. */
async function tuiWithPrompt(env: Record<string, string>, project: string, prompt: string) {
  pane = await startTmux({ dir: env.TMPDIR!, command: [OPENCODE_BIN], env: { ...env, PWD: project }, cwd: project });
  await pane.waitFor(/Ask anything/, 300_000);
  let keys = 0;
  await pane.tmux("send-keys", "-t", pane.name, "-l", prompt);
  keys++;
  await pane.waitFor((s) => s.includes(prompt), 30_000);
  await pane.tmux("send-keys", "-t", pane.name, "Enter");
  keys++;
  return () => keys;
}

/** The in-client record (`state/respawn/client-<pid>.json`), once ctx wrote it. */
function record(
  project: string,
): { cycles: number; target: string; events: { event: string; detail?: string }[] } | undefined {
  const dir = join(project, ".ctx", "state", "respawn");
  try {
    const f = readdirSync(dir).find((n) => /^client-\d+\.json$/.test(n));
    return f ? JSON.parse(readFileSync(join(dir, f), "utf8")) : undefined;
  } catch {
    return undefined;
  }
}

/** OpenCode's sessions (main ones, oldest first) and each one's user texts, read-only from its store. */
function store(env: Record<string, string>): { id: string; texts: string[]; created: number; done: number }[] {
  const db = new Database(join(env.XDG_DATA_HOME!, "opencode", "opencode.db"), { readonly: true });
  try {
    const rows = db
      .query(
        `select s.id, s.time_created as created, (select max(json_extract(m.data, '$.time.completed')) from message m
         where m.session_id = s.id and json_extract(m.data, '$.role') = 'assistant') as done
         from session s where s.parent_id is null order by s.time_created`,
      )
      .all() as { id: string; created: number; done: number }[];
    const texts = db.query(
      `select json_extract(p.data, '$.text') as text from part p join message m on m.id = p.message_id
       where p.session_id = ? and json_extract(m.data, '$.role') = 'user' and json_extract(p.data, '$.type') = 'text'
       order by p.id`,
    );
    return rows.map((r) => ({ ...r, texts: (texts.all(r.id) as { text: string }[]).map((t) => t.text) }));
  } finally {
    db.close();
  }
}

/** Polls until `ok()` holds (the test's own timeout bounds it). */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await Bun.sleep(200);
}

test.skipIf(!HAVE_OPENCODE)(
  "in the TUI: at restart_at a new session starts with ctx's summary, no keystroke after the first prompt",
  async () => {
    const seen: number[] = [];
    const { env, project } = await world((i) => {
      seen[i] = Date.now();
      // 48,000 of 52,000 is 92 %: past respawn.restart_at, before OpenCode's own compaction.
      return i === 0 ? answer("Step one is done; the parser is next.", 48_000) : answer("Continuing.", 6_000);
    }, IN_CLIENT);
    const keys = await tuiWithPrompt(env, project, "build the parser");
    const typed = keys();
    await until(() => api!.mainRequests().length >= 2);
    const fresh = api!.mainRequests()[1]!;
    expect(lastUserText(fresh)).toContain(KICKSTART);
    expect(allText(fresh)).toContain("<previous-session-summary>");
    expect(allText(fresh)).toContain("> build the parser");
    expect(fresh.body.messages.filter((m: { role: string }) => m.role === "assistant")).toHaveLength(0);
    await until(() => record(project)?.events.at(-1)?.event === "cycle_done");
    const rec = record(project)!;
    expect(rec).toMatchObject({ target: "in-client", cycles: 1 });
    expect(rec.events.map((e) => e.event)).toEqual(["cycle_start", "step", "cycle_done"]);
    // OpenCode's store: a second main session, whose first user message is the continue prompt and ctx's summary.
    const sessions = store(env);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]!.texts.some((t) => t.startsWith(KICKSTART))).toBe(true);
    const injected = sessions[1]!.texts.find((t) => t.includes("<previous-session-summary>"));
    expect(injected).toContain("Step one is done; the parser is next.");
    expect(injected).not.toContain("never answered");
    await pane!.waitFor(/Continuing\./, 60_000);
    // ctx status shows the in-client supervisor on the fresh session while OpenCode runs.
    const status = await runCtx(["status", "--json"], { env, cwd: project });
    const rows = JSON.parse(status.stdout).sessions as { session_id: string; agent: string; respawn: string | null }[];
    expect(rows.find((r) => r.session_id === sessions[1]!.id)).toMatchObject({
      agent: "opencode",
      respawn: "watching",
    });
    expect(keys()).toBe(typed);
    expect(api!.mainRequests()).toHaveLength(2);
    // A measurement, not a check: from the first turn's end (its answer saved) to the fresh request.
    const decided = Date.parse((rec.events[0] as { at?: string }).at ?? "") - sessions[0]!.done;
    console.log(
      `first turn's end to the fresh session's first request: ${seen[1]! - sessions[0]!.done} ms (ctx's decision at ${decided} ms)`,
    );
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "in the TUI: a draft typed during the turn is never sent by the cycle",
  async () => {
    const { env, project } = await world(
      (i) => (i === 0 ? { ...answer("Step one is done.", 48_000), delayMs: 4000 } : answer("Continuing.", 6_000)),
      IN_CLIENT,
    );
    await tuiWithPrompt(env, project, "build the parser");
    await until(() => api!.mainRequests().length === 1);
    await pane!.tmux("send-keys", "-t", pane!.name, "-l", "my half typed draft");
    await until(() => api!.mainRequests().length >= 2);
    const fresh = api!.mainRequests()[1]!;
    expect(lastUserText(fresh)).toContain(KICKSTART);
    expect(allText(fresh)).not.toContain("my half typed draft");
    await until(() => record(project)?.events.at(-1)?.event === "cycle_done");
    const screen = await pane!.waitFor(/Continuing\./, 60_000);
    // The draft is still in the prompt box, under the fresh session's answer: the person's to send.
    const below = screen.split("\n").slice(screen.split("\n").findIndex((l) => l.includes("Continuing.")));
    expect(below.some((l) => /^\s*┃\s+my half typed draft\s*$/.test(l))).toBe(true);
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "in the TUI: at compact_at OpenCode compacts the session with ctx's instructions",
  async () => {
    // 45,500 of 52,000 is 88 %: past respawn.compact_at (85), below restart_at (95).
    const { env, project } = await world(
      (i) => answer(i === 0 ? "Step one is done." : "Continuing.", 45_500 - i * 40_000),
      {
        CTX_RESPAWN_IN_CLIENT: "1",
        CTX_RESPAWN_COMPACT_AT: "85",
        CTX_RESPAWN_RESTART_AT: "95",
      },
    );
    await tuiWithPrompt(env, project, "build the parser");
    await until(() => record(project)?.events.at(-1)?.event === "cycle_done");
    const rec = record(project)!;
    expect(rec.events.map((e) => e.event)).toEqual(["cycle_start", "cycle_done"]);
    expect(rec.events[0]!.detail).toBe("compact at 88% (trigger 85%), in the client");
    // OpenCode's compaction request (no tools) carries ctx's instructions; no new session, no summary of ctx's.
    const compaction = api!.requests.filter((r) => r.kind === "side" && allText(r).includes("Keep the task state"));
    expect(compaction).toHaveLength(1);
    expect(store(env)).toHaveLength(1);
    expect(existsSync(join(project, ".ctx", "state", "respawn-pending.json"))).toBe(false);
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "in the TUI: respawn.max_cycles_per_hour holds a second cycle",
  async () => {
    const { env, project } = await world((i) => answer(i === 0 ? "Step one is done." : "Still full.", 48_000), {
      ...IN_CLIENT,
      CTX_RESPAWN_MAX_CYCLES_PER_HOUR: "1",
    });
    await tuiWithPrompt(env, project, "build the parser");
    await until(() => record(project)?.events.at(-1)?.event === "brake");
    const rec = record(project)!;
    expect(rec.cycles).toBe(1);
    expect(rec.events.map((e) => e.event)).toEqual(["cycle_start", "step", "cycle_done", "brake"]);
    expect(rec.events.at(-1)).toMatchObject({
      detail: "1 cycles in the last hour (respawn.max_cycles_per_hour); waiting.",
    });
    expect(api!.mainRequests()).toHaveLength(2);
    expect(store(env)).toHaveLength(2);
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "opencode.replace_compaction_summary: OpenCode keeps ctx's summary as its compaction summary",
  async () => {
    const { env, project } = await world(
      (i) =>
        i === 0
          ? {
              content: [
                { type: "text", text: "I will list the files." },
                { type: "tool_use", name: "bash", input: { command: "ls", description: "list" } },
              ],
              usage: { input_tokens: 53_000, output_tokens: 40 },
            }
          : answer("Continuing after compaction: done.", 6_000),
      { CTX_OPENCODE_REPLACE_COMPACTION_SUMMARY: "1" },
    );
    expect((await runOpenCode(["run", "--title", "t1", "List the files"], env, project)).code).toBe(0);
    const db = new Database(join(env.XDG_DATA_HOME!, "opencode", "opencode.db"), { readonly: true });
    const summary = db
      .query(
        `select json_extract(p.data, '$.text') as text from part p join message m on m.id = p.message_id
         where json_extract(m.data, '$.summary') = 1 and json_extract(p.data, '$.type') = 'text'`,
      )
      .all() as { text: string }[];
    db.close();
    expect(summary).toHaveLength(1);
    expect(summary[0]!.text).toContain("The context was just compacted; here is the handoff summary");
    expect(summary[0]!.text).toContain("<previous-session-summary>");
    expect(summary[0]!.text).toContain("`ls`");
    // The model after the compaction sees ctx's summary, not the fake's side reply.
    const after = api!.mainRequests().at(-1)!;
    expect(allText(after)).toContain("<previous-session-summary>");
    expect(allText(after)).not.toContain("Side reply");
  },
  OPENCODE_TIMEOUT_MS,
);
