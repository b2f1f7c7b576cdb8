/**
 * Issue 29: the 5-hour window seen before it closes. The status line records the payload's `rate_limits`
 * (the account's, per user); at `limits.checkpoint_at` (90) a supervised chain (`ctx run`) starts no leg
 * it could not finish before the reset: it says so and waits, then runs the leg with the real client.
 */
import { expect, test } from "bun:test";
import { runCtx } from "../helpers/ctx.ts";
import { CLAUDE_BIN, CLIENT, TEST_MODEL } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { allText, bashTurn } from "./fake-api.ts";

const rig = stopAfterEach();

/** A status-line payload of the session in `project`: 91 % of the 5-hour window used, resetting at `resetS`. */
const payload = (project: string, resetS: number): string =>
  JSON.stringify({
    session_id: "0c8d5c1e-6a55-4c1b-9d1f-3f0e2b7a9c44",
    cwd: project,
    model: { id: TEST_MODEL, display_name: "Sonnet 4.5" },
    context_window: { context_window_size: 200000, used_percentage: 5, current_usage: { input_tokens: 10000 } },
    rate_limits: { five_hour: { used_percentage: 91, resets_at: resetS } },
  });

test(`e2e ctx run (${CLIENT.version}) at 91 % of the 5-hour window waits for the reset before its leg`, async () => {
  const asked: number[] = [];
  const api = await rig.api(() => {
    asked.push(Date.now());
    return {
      content: [{ type: "text", text: "RESULT-OK" }],
      usage: { input_tokens: 100, cache_read_input_tokens: 9_000 },
    };
  });
  const sandbox = await rig.sandbox({ apiUrl: api.url, extraEnv: { TZ: "UTC" } });
  expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
  // what the interactive session's status line saw: 91 % of the 5-hour window, resetting in 3 s
  const resetS = Math.ceil(Date.now() / 1000) + 3;
  const line = await runCtx(["statusline"], {
    env: { ...sandbox.env, NO_COLOR: "1" },
    stdin: payload(sandbox.project, resetS),
    cwd: sandbox.project,
  });
  expect(line.stdout).toContain("5h 91% · resets ");
  const r = await runCtx(["run", "-p", "say RESULT-OK", "--", "--model", TEST_MODEL], {
    env: { ...sandbox.env, CTX_CLAUDE: CLAUDE_BIN, CTX_RESPAWN_LIMIT_MARGIN_S: "1" },
    cwd: sandbox.project,
    timeoutMs: 120_000,
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("RESULT-OK");
  const clock = new Date(resetS * 1000).toISOString().slice(11, 16);
  expect(r.stderr).toContain(
    `ctx run: waiting for the 5-hour usage window to reset at ${clock} (91% used): a leg started now could not finish before it`,
  );
  // the leg's first request went out after the reset, not before
  expect(asked.length).toBeGreaterThan(0);
  expect(Math.min(...asked)).toBeGreaterThanOrEqual(resetS * 1000);
}, 150_000);

test(`e2e (${CLIENT.version}): at 91 % of the 5-hour window the checkpoint reaches the agent once`, async () => {
  const api = await rig.api([
    bashTurn("echo one", 20_000),
    bashTurn("echo two", 21_000),
    bashTurn("echo three", 22_000),
    bashTurn("echo four", 23_000),
    {
      content: [{ type: "text", text: "All steps run." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 23_200 },
    },
  ]);
  const sandbox = await rig.sandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1", TZ: "UTC" } });
  expect((await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project })).code).toBe(0);
  // a status-line payload with rate_limits (the offline client has no plan, so its own payload carries none)
  const resetS = Math.ceil(Date.now() / 1000) + 3600;
  const stdin = payload(sandbox.project, resetS);
  expect((await runCtx(["statusline"], { env: sandbox.env, stdin, cwd: sandbox.project })).code).toBe(0);
  // no --model: the client's default, a 1M window
  const tmux = await rig.client(sandbox, { model: null, height: 50 });
  await tmux.sendText("run the four steps");
  await tmux.waitFor((s) => s.includes("All steps run."), 90_000);
  const clock = new Date(resetS * 1000).toISOString().slice(11, 16);
  const told = api
    .mainRequests()
    .filter((r) =>
      allText(r).includes(`USAGE CHECKPOINT: 91% of the 5-hour usage window is used (it resets at ${clock}).`),
    );
  // once: the first request after the first tool call carries it, and every later one only as history
  expect(told.length).toBeGreaterThanOrEqual(1);
  const first = api.mainRequests().indexOf(told[0]!);
  const count = (r: (typeof told)[0]) => allText(r).split("USAGE CHECKPOINT:").length - 1;
  for (const r of api.mainRequests().slice(first)) expect(count(r)).toBe(1);
}, 150_000);
