/**
 * The cycle's time from the idle turn to the fresh session's first request, with the real client
 * and the fake API: ctx's mod inside the client (`respawn.in_client`, interactive and `claude -p`)
 * and the tmux supervisor (`ctx respawn start`), both at `respawn.restart_at` 90 with compaction
 * off. The clock starts when the fake API answers the turn that ends at 92 % and stops when the
 * fresh conversation's first request arrives.
 *
 *   CTX_TEST_CLIENT=newest bun bench/cycle-time.ts --runs 5 [--only "ctx run"]
 */
import { parseArgs } from "node:util";
import { ALLOWED_TOOLS, CLAUDE_BIN, makeSandbox, runClaudeP, TEST_MODEL } from "../test/e2e/claude.ts";
import { startClient } from "../test/e2e/client-pane.ts";
import { startFakeApi, type Turn } from "../test/e2e/fake-api.ts";
import { superviseSession } from "../test/e2e/respawn-harness.ts";
import { submit } from "../test/e2e/submit.ts";
import { runCtx } from "../test/helpers/ctx.ts";

const { values } = parseArgs({ options: { runs: { type: "string" }, only: { type: "string" } } });
const runs = Number(values.runs ?? 5);
const ENV = { CTX_RESPAWN_COMPACT_AT: "off", CTX_RESPAWN_RESTART_AT: "90" };

/** A fake API that times the gap between answering request 0 and receiving request 1 (`tool`: request 0 calls Bash). */
async function timedApi(tool = false) {
  let answered = 0;
  let fresh = 0;
  const api = await startFakeApi((_req, i): Turn => {
    if (i === 0) answered = performance.now();
    if (i === 1) fresh = performance.now();
    const used = i === 0 ? 184_000 : 10_000;
    const usage = { input_tokens: 100, cache_read_input_tokens: used - 100 };
    if (tool && i === 0)
      return { content: [{ type: "tool_use", name: "Bash", input: { command: "echo one" } }], usage };
    return { content: [{ type: "text", text: i === 0 ? "Step one is done." : "Continuing." }], usage };
  });
  return { api, gap: () => (fresh && answered ? Math.round(fresh - answered) : undefined) };
}

async function until(ok: () => boolean, ms = 120_000): Promise<void> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error("timed out");
    await Bun.sleep(50);
  }
}

async function modInteractive(): Promise<number | undefined> {
  const { api, gap } = await timedApi();
  const sandbox = await makeSandbox({
    apiUrl: api.url,
    extraEnv: { ...ENV, CTX_RESPAWN_IN_CLIENT: "1", NO_COLOR: "1" },
  });
  const pane = await (async () => {
    await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
    return startClient(sandbox);
  })();
  try {
    await submit(pane, "build the parser", () => api.mainRequests().length > 0);
    await until(() => api.mainRequests().length >= 2);
    return gap();
  } finally {
    await pane.kill().catch(() => {});
    await api.stop();
    sandbox.cleanup();
  }
}

async function modHeadless(): Promise<number | undefined> {
  const { api, gap } = await timedApi();
  const sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { ...ENV, CTX_RESPAWN_IN_CLIENT: "1" } });
  try {
    await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
    await runClaudeP(sandbox, "build the parser", { timeoutMs: 120_000 });
    return gap();
  } finally {
    await api.stop();
    sandbox.cleanup();
  }
}

async function tmuxSupervisor(): Promise<number | undefined> {
  const { api, gap } = await timedApi();
  const sup = await superviseSession(api, "build the parser", ENV);
  try {
    await until(() => api.mainRequests().length >= 2);
    return gap();
  } finally {
    await sup.cleanup();
    await api.stop();
  }
}

/** `ctx run`: the leg ends at the tool call at 92 %, and the next leg is a new `claude -p`. */
async function ctxRunLegs(): Promise<number | undefined> {
  const { api, gap } = await timedApi(true);
  const sandbox = await makeSandbox({ apiUrl: api.url });
  try {
    await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
    const args = ["run", "-p", "build the parser", "--restart-at", "90", "--max-legs", "2"];
    const r = await runCtx([...args, "--", "--model", TEST_MODEL, "--allowedTools", ...ALLOWED_TOOLS], {
      env: { ...sandbox.env, CTX_CLAUDE: CLAUDE_BIN },
      cwd: sandbox.project,
      timeoutMs: 240_000,
    });
    if (r.code !== 0) throw new Error(`ctx run exited ${r.code}: ${r.stderr}`);
    return gap();
  } finally {
    await api.stop();
    sandbox.cleanup();
  }
}

for (const [name, once] of [
  ["ctx run, separate legs", ctxRunLegs],
  ["mod, interactive", modInteractive],
  ["mod, claude -p", modHeadless],
  ["tmux supervisor", tmuxSupervisor],
] as const) {
  if (values.only && !name.startsWith(values.only)) continue;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = await once().catch((err: Error) => (console.error(`${name}: ${err.message}`), undefined));
    if (t !== undefined) times.push(t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${name}: ${times.length}/${runs} cycles, idle turn → fresh first request: median ${median} ms (${times.join(", ")} ms)`,
  );
}
