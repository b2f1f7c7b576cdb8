/**
 * Issue 24, "two sessions side by side": two real Claude Code sessions in two tmux windows named
 * alpaca and bison (fake API, ctx installed by `ctx install`). Each status line shows its window's
 * name, `ctx status` labels each row with it, and its figure is the one the status line shows.
 */
import { afterEach, expect, test } from "bun:test";
import { runCtx } from "../helpers/ctx.ts";
import { CLAUDE_BIN, makeSandbox, TEST_MODEL, type Sandbox } from "./claude.ts";
import { allText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let panes: TmuxSession[] = [];
afterEach(async () => {
  for (const p of panes) await p.kill().catch(() => {});
  await api?.stop();
  sandbox?.cleanup();
  api = sandbox = undefined;
  panes = [];
});

const usage = (tokens: number) => ({ input_tokens: 100, cache_read_input_tokens: tokens - 100, output_tokens: 20 });

test("e2e: two sessions in two tmux windows carry their window's name in ctx status and their status lines", async () => {
  // alpaca: tools at 100k and 120k, then (late) its answer at 132,000 tokens (66 %); bison: a tool at 80k,
  // its answer at 90,000 (45 %)
  const steps = { ALPACA: [100_000, 120_000, 132_000], BISON: [80_000, 90_000] };
  api = await startFakeApi((req): Turn => {
    const who = allText(req).includes("ALPACA") ? "ALPACA" : "BISON";
    const done = (req.body?.messages ?? []).filter((m: any) => m.role === "assistant").length;
    const tokens = steps[who][done] ?? steps[who].at(-1)!;
    if (done < steps[who].length - 1)
      return {
        content: [{ type: "tool_use", name: "Bash", input: { command: `echo ${who}-${done}`, description: "step" } }],
        usage: usage(tokens),
      };
    return {
      content: [{ type: "text", text: `${who} done.` }],
      usage: usage(tokens),
      delayMs: who === "ALPACA" ? 6000 : 0,
    };
  });
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  const installed = await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
  expect(installed.code).toBe(0);

  const start = async (window: string, prompt: string) => {
    const pane = await startTmux({
      dir: sandbox!.tmp,
      name: `s-${window}`,
      window,
      tmuxEnv: true,
      command: [CLAUDE_BIN, "--model", TEST_MODEL, "--allowedTools", "Bash"],
      env: sandbox!.env,
      cwd: sandbox!.project,
    });
    panes.push(pane);
    await pane.waitFor(/for shortcuts|❯/, 30_000);
    await pane.sendText(prompt);
    return pane;
  };
  const alpaca = await start("alpaca", "ALPACA: export");
  const bison = await start("bison", "BISON: import");

  // mid-turn (alpaca's answer is late): ctx status has the figure its status line shows
  await alpaca.waitFor(/Sonnet 4\.5 │ alpaca │ project │ \S+ 60% 120k\/200k/, 40_000);
  const during = await runCtx(["status", "--json"], { env: sandbox.env, cwd: sandbox.project });
  const mid = JSON.parse(during.stdout).sessions.find((r: { label: string }) => r.label === "alpaca");
  expect(mid.used_pct).toBe(60);
  // each status line: model │ its window's name │ project │ its own figure
  await alpaca.waitFor(/Sonnet 4\.5 │ alpaca │ project │ \S+ 66% 132k\/200k/, 40_000);
  await bison.waitFor(/Sonnet 4\.5 │ bison │ project │ \S+ 45% 90k\/200k/, 40_000);

  // ctx status: one row per window, by name, with the status line's figure
  let rows: { label: string; used_pct: number; session_id: string }[] = [];
  for (let i = 0; i < 80 && rows.length !== 2; i++) {
    if (i > 0) await Bun.sleep(250);
    const r = await runCtx(["status", "--json"], { env: sandbox.env, cwd: sandbox.project });
    rows = JSON.parse(r.stdout).sessions;
  }
  // (the index entry itself can stay a request behind: at Stop the bridge is the previous request's, and the
  // client writes the transcript line of the last one in batches; the status line is what the user sees)
  expect(Object.fromEntries(rows.map((r) => [r.label, r.used_pct]))).toEqual({ alpaca: 66, bison: 45 });
  const table = await runCtx(["status"], { env: sandbox.env, cwd: sandbox.project });
  expect(table.stdout).toMatch(/project\s+alpaca\s+chain-\S+\s+Sonnet 4\.5\s+\S+\s+66%\s+132k\/200k\s+warning/);
  expect(table.stdout).toMatch(/project\s+bison\s+chain-\S+\s+Sonnet 4\.5\s+\S+\s+45%\s+90k\/200k\s+ok/);
}, 120_000);
