/**
 * The cycle inside the client (`respawn.in_client`) with the real newest client and ctx's mod, no
 * tmux supervisor and no keystroke from outside: at an idle turn's end at `respawn.restart_at`
 * the summary is written, the mod clears the conversation and submits the continue prompt as the
 * user, and the fresh conversation's first request carries the summary and that prompt. ctx
 * status shows the in-client supervisor. 2.1.197 runs no mods: the suite skips it there.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLIENT, CLIENTS, runClaudeP, type Sandbox } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { allText, lastUserText, usageLimitTurn, type FakeApi, type Turn } from "./fake-api.ts";
import { answer, clientRecord, IN_CLIENT, inClientSandbox, KICKSTART, MODS, until } from "./in-client.ts";
import { submit } from "./submit.ts";
import { inInputBox, stripAnsi, type TmuxSession } from "./tmux.ts";

// The sessions of the running test: the rig kills, stops and removes them after it.
let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let pane: TmuxSession | undefined;
const rig = stopAfterEach();

/** An interactive client with ctx installed and the in-client cycle on, before any prompt. */
async function interactive(script: (i: number) => Turn): Promise<TmuxSession> {
  api = await rig.api((_req, i) => script(i));
  sandbox = await inClientSandbox(api, {}, rig.sandbox);
  pane = await rig.client(sandbox);
  return pane;
}

test.skipIf(!MODS)(
  "interactive: the full cycle with no keystroke from outside",
  async () => {
    const p = await interactive((i) =>
      i === 0 ? answer("Step one is done.", 184_000) : answer("Continuing.", 10_000),
    );
    await submit(p, "build the parser", () => api!.mainRequests().length > 0);
    await until(() => api!.mainRequests().length === 2);
    const fresh = api!.mainRequests()[1]!;
    expect(lastUserText(fresh)).toContain(KICKSTART);
    expect(allText(fresh)).toContain("<previous-session-summary>");
    expect(fresh.body.messages.filter((m: { role: string }) => m.role === "assistant")).toHaveLength(0);
    await p.waitFor(/Continuing\./, 30_000);
    await until(() => clientRecord(sandbox!)?.events.at(-1)?.event === "cycle_done");
    // The client still runs: ctx status shows the supervisor watching the fresh session, at its figure.
    let rows: { respawn: string | null; used_pct: number }[] = [];
    for (let i = 0; i < 50 && !rows.some((r) => r.respawn === "watching" && r.used_pct === 5); i++) {
      const status = await runCtx(["status", "--json"], { env: sandbox!.env, cwd: sandbox!.project });
      rows = JSON.parse(status.stdout).sessions;
      await Bun.sleep(200);
    }
    expect(rows.find((r) => r.respawn === "watching")).toMatchObject({ respawn: "watching", used_pct: 5 });
  },
  180_000,
);

test.skipIf(!MODS)(
  "interactive: a half-typed draft is left alone",
  async () => {
    const p = await interactive((i) =>
      i === 0 ? answer("Step one is done.", 184_000, 3000) : answer("Next.", 10_000),
    );
    await submit(p, "build the parser", () => api!.mainRequests().length > 0);
    // Typed while the answer is on its way, not sent.
    await p.tmux("send-keys", "-t", p.name, "-l", "my half typed draft");
    await p.waitFor(/Step one is done\./, 30_000);
    // The mod reported the idle turn, and ctx held the due restart for the draft.
    await until(() => (clientRecord(sandbox!)?.events.length ?? 0) > 0);
    await Bun.sleep(500);
    expect(api!.mainRequests()).toHaveLength(1);
    expect(clientRecord(sandbox!)?.cycles).toBe(0);
    expect(clientRecord(sandbox!)?.events).toEqual([
      expect.objectContaining({
        event: "hold",
        detail: "the person is typing a draft at 92%: the restart waits for the next idle turn",
      }),
    ]);
    expect(inInputBox(stripAnsi(await p.capture()), "my half typed draft")).toBe(true);
  },
  180_000,
);

test.skipIf(!MODS)(
  "interactive: a prompt queued during the turn runs, and no cycle is mixed in",
  async () => {
    const p = await interactive((i) =>
      // The queued prompt's answer takes a while: at the first turn's end the mod still has its 92 %.
      i === 0 ? answer("Step one is done.", 184_000, 3000) : answer("Queued one answered.", 100_000, 3000),
    );
    await submit(p, "build the parser", () => api!.mainRequests().length > 0);
    // Submitted while the turn runs: the client queues it and runs it next.
    await p.sendText("QUEUED-PROMPT check the tests");
    await until(() => api!.mainRequests().length === 2);
    await p.waitFor(/Queued one answered\./, 30_000);
    // At the first turn's end the queued prompt held the due restart; its own turn ended at 50 %.
    await until(() => (clientRecord(sandbox!)?.machine.usage as { pct: number } | null)?.pct === 50);
    await Bun.sleep(500);
    expect(clientRecord(sandbox!)?.events).toEqual([
      expect.objectContaining({
        event: "hold",
        detail: "a prompt the person queued runs next at 92%: the restart waits for the next idle turn",
      }),
    ]);
    const second = api!.mainRequests()[1]!;
    expect(lastUserText(second)).toContain("QUEUED-PROMPT check the tests");
    expect(allText(second)).not.toContain("<command-name>/clear</command-name>");
    expect(api!.mainRequests()).toHaveLength(2);
    expect(clientRecord(sandbox!)?.cycles).toBe(0);
  },
  180_000,
);

test.skipIf(!MODS)(
  "headless: at respawn.compact_at the mod compacts inside the claude -p process",
  async () => {
    api = await rig.api((_req, i) =>
      i === 0 ? answer("Step one is done.", 176_000) : answer("Continuing after the compaction.", 20_000),
    );
    sandbox = await rig.sandbox({
      apiUrl: api.url,
      extraEnv: { CTX_RESPAWN_IN_CLIENT: "1", CTX_RESPAWN_COMPACT_AT: "85", CTX_RESPAWN_RESTART_AT: "95" },
    });
    expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
    const r = await runClaudeP(sandbox, "build the parser", { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    // 88 %: the client's compaction ran (a summary request), no finalize and no /clear.
    expect(api.compactRequests().length).toBeGreaterThan(0);
    const rec = clientRecord(sandbox)!;
    expect(rec.events.map((e) => e.event)).toEqual(["cycle_start", "cycle_done"]);
    expect(api.mainRequests().some((q) => allText(q).includes("<command-name>/clear</command-name>"))).toBe(false);
  },
  180_000,
);

test.skipIf(CLIENT.version === CLIENTS.pinned.version)(
  "headless: finalize, /clear and the continue prompt inside one claude -p process",
  async () => {
    api = await rig.api((_req, i) =>
      i === 0
        ? {
            content: [{ type: "text", text: "Step one is done; the next step is the parser." }],
            usage: { input_tokens: 100, cache_read_input_tokens: 183_900, output_tokens: 30 }, // 92 %
          }
        : {
            content: [{ type: "text", text: "Continuing." }],
            usage: { input_tokens: 100, cache_read_input_tokens: 9_900 },
          },
    );
    sandbox = await rig.sandbox({ apiUrl: api.url, extraEnv: IN_CLIENT });
    expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
    const r = await runClaudeP(sandbox, "build the parser", { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const main = api.mainRequests();
    expect(main).toHaveLength(2);
    // The fresh conversation: the summary the SessionStart hook injected, and the continue prompt as the user's.
    const fresh = main[1]!;
    expect(lastUserText(fresh)).toContain(KICKSTART);
    expect(allText(fresh)).toContain("Step one is done");
    expect(allText(fresh)).toContain("<command-name>/clear</command-name>");
    // The old conversation is gone: no answer of the model in it.
    expect(fresh.body.messages.filter((m: { role: string }) => m.role === "assistant")).toHaveLength(0);
    // The summary was written before /clear, and the record says what happened, in order.
    const sessions = join(sandbox.project, ".ctx", "sessions");
    const summary = readdirSync(sessions).find((f) => /^summary-.*\.md$/.test(f));
    expect(summary).toBeDefined();
    const respawn = join(sandbox.project, ".ctx", "state", "respawn");
    const [recFile] = readdirSync(respawn).filter((f) => /^client-\d+\.json$/.test(f));
    const rec = JSON.parse(readFileSync(join(respawn, recFile!), "utf8"));
    expect(rec.events.map((e: { event: string }) => e.event)).toEqual(["cycle_start", "step", "cycle_done"]);
    expect(rec).toMatchObject({ target: "in-client", cycles: 1 });
    expect(statSync(join(sessions, summary!)).mtimeMs).toBeLessThanOrEqual(Date.parse(rec.events[2].at));
    // ctx status shows the supervisor's record on the fresh session: `gone` once the -p run's client exited.
    const status = await runCtx(["status", "--json", "--all"], { env: sandbox.env, cwd: sandbox.project });
    const rows = JSON.parse(status.stdout).sessions as { session_id: string; respawn: string | null }[];
    const row = rows.find((s) => s.session_id === r.json?.session_id) as unknown as {
      respawn: string;
      respawn_events: { event: string }[];
    };
    expect(row.respawn).toBe("gone");
    expect(row.respawn_events.map((e) => e.event)).toEqual(["cycle_start", "step", "cycle_done"]);
  },
  180_000,
);

test.skipIf(!MODS)(
  "interactive: at the usage limit the session is continued once, after the reset",
  async () => {
    // On a minute boundary at least a minute ahead: the client shows the reset to the minute.
    const resetMs = Math.ceil((Date.now() + 60_000) / 60_000) * 60_000;
    const GO_ON = "LIMIT-OVER-7731: the usage limit has reset, go on.";
    api = await rig.api((_req, i): Turn => {
      if (i === 0) return answer("Step one is done.", 100_000);
      if (Date.now() < resetMs) return usageLimitTurn(resetMs / 1000);
      return answer("Going on after the limit.", 101_000);
    });
    sandbox = await rig.sandbox({
      apiUrl: api.url,
      extraEnv: {
        ...IN_CLIENT,
        NO_COLOR: "1",
        CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-e2e-fake-subscription-token-0123456789",
        CTX_RESPAWN_LIMIT_MARGIN_S: "5",
        CTX_RESPAWN_LIMIT_CONTINUE_PROMPT: GO_ON,
      },
    });
    delete sandbox.env.ANTHROPIC_API_KEY;
    expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
    pane = await rig.client(sandbox);
    await submit(pane, "build the parser", () => api!.mainRequests().length > 0);
    await pane.waitFor(/Step one is done\./, 30_000);
    await submit(pane, "now the tests", () => api!.mainRequests().length > 1);
    // Past the reset and the margin, and long enough for a doubled continue to show.
    await until(() => Date.now() > resetMs + 25_000);
    const after = api.mainRequests().filter((q) => /LIMIT-OVER-7731|usage limit has reset/i.test(lastUserText(q)));
    expect(after).toHaveLength(1);
    const rec = clientRecord(sandbox);
    const events = rec?.events.map((e) => e.event) ?? [];
    expect(events).toContain("limit");
    expect(events.filter((e) => e === "limit_continue")).toHaveLength(1);
  },
  240_000,
);
