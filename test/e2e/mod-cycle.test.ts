/**
 * The cycle inside the client (`respawn.in_client`) with the real newest client and ctx's mod, no
 * tmux supervisor and no keystroke from outside: at an idle turn's end at `respawn.restart_at`
 * the summary is written, the mod clears the conversation and submits the continue prompt as the
 * user, and the fresh conversation's first request carries the summary and that prompt. ctx
 * status shows the in-client supervisor. 2.1.197 runs no mods: the suite skips it there.
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLIENT, CLIENTS, makeSandbox, runClaudeP, type Sandbox } from "./claude.ts";
import { allText, lastUserText, startFakeApi, type FakeApi } from "./fake-api.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await api?.stop();
  sandbox?.cleanup();
  api = sandbox = undefined;
});

const KICKSTART = "Continue the work from the previous session's summary above";
const IN_CLIENT = { CTX_RESPAWN_IN_CLIENT: "1", CTX_RESPAWN_COMPACT_AT: "off", CTX_RESPAWN_RESTART_AT: "90" };

test.skipIf(CLIENT.version === CLIENTS.pinned.version)(
  "headless: finalize, /clear and the continue prompt inside one claude -p process",
  async () => {
    api = await startFakeApi((_req, i) =>
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
    sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: IN_CLIENT });
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
