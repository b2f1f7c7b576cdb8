/**
 * How many requests late the agent's first warning comes, per path into Claude Code, over a fast
 * tool loop in an interactive session with the status line configured (what a user runs):
 *
 *   CTX_TEST_CLIENT=newest bun bench/warning-lag.ts --path mod   --runs 20
 *   CTX_TEST_CLIENT=newest bun bench/warning-lag.ts --path hooks --runs 20   (plugin left out)
 *   bun bench/warning-lag.ts --path hooks --runs 20                         (2.1.197)
 *
 * Each run: `ctx install` in a fresh sandbox, the real client in tmux, the fake API answering a
 * loop of Bash calls whose context grows 4k tokens a request and crosses the warning level (65 %)
 * at request 9; 0 means the warning rode the request right after the crossing. Prints one line
 * per run and a summary. Temp dirs only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CLIENT, makeSandbox } from "../test/e2e/claude.ts";
import { startClient } from "../test/e2e/client-pane.ts";
import { lastUserText, startFakeApi, type Turn } from "../test/e2e/fake-api.ts";
import { submit } from "../test/e2e/submit.ts";
import { runCtx } from "../test/helpers/ctx.ts";

const { values } = parseArgs({ options: { path: { type: "string" }, runs: { type: "string" } } });
const path = values.path === "mod" ? "mod" : "hooks";
const runs = Number(values.runs ?? 20);

/** 100k, 104k, … 152k of a 200k window: 66 % first at request index 8. */
const USED = Array.from({ length: 14 }, (_, i) => 100_000 + 4_000 * i);
const CROSSING = USED.findIndex((u) => u >= 130_000);

function turns(): Turn[] {
  const t: Turn[] = USED.map((u, i) => ({
    content: [{ type: "tool_use", name: "Bash", input: { command: `echo step-${i}` } }],
    usage: { input_tokens: 100, cache_read_input_tokens: u - 100, output_tokens: 20 },
  }));
  t.push({
    content: [{ type: "text", text: "All done." }],
    usage: { input_tokens: 100, cache_read_input_tokens: 160_000 },
  });
  return t;
}

/** One run: the index of the first request carrying a warning, minus the request after the crossing. */
async function once(): Promise<number | undefined> {
  const api = await startFakeApi(turns());
  const sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  let pane: Awaited<ReturnType<typeof startClient>> | undefined;
  try {
    const r = await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
    if (r.code !== 0) throw new Error(r.stderr);
    if (path === "hooks") {
      const file = join(sandbox.home, ".claude", "settings.json");
      const s = JSON.parse(readFileSync(file, "utf8"));
      delete s.env; // no plugin: the settings hooks and the status line alone
      writeFileSync(file, JSON.stringify(s, null, 2));
    }
    pane = await startClient(sandbox);
    await submit(pane, "run the steps", () => api.mainRequests().length > 0);
    await pane.waitFor(/All done\./, 120_000);
    const first = api.mainRequests().findIndex((q) => /CONTEXT (WARNING|CRITICAL)/.test(lastUserText(q)));
    return first < 0 ? undefined : first - (CROSSING + 1);
  } finally {
    await pane?.kill().catch(() => {});
    await api.stop();
    sandbox.cleanup();
  }
}

const lags: (number | undefined)[] = [];
for (let i = 0; i < runs; i++) {
  const lag = await once().catch((err: Error) => {
    console.error(`run ${i + 1}: ${err.message.split("\n")[0]}`);
    return undefined;
  });
  lags.push(lag);
  console.log(`run ${i + 1}/${runs}: ${lag === undefined ? "no warning" : `${lag} request(s) late`}`);
}
const counts = new Map<string, number>();
for (const l of lags) counts.set(String(l ?? "none"), (counts.get(String(l ?? "none")) ?? 0) + 1);
console.log(
  `${CLIENT.version} ${path}: ${[...counts].map(([k, n]) => `${n}× ${k === "none" ? "no warning" : `${k} late`}`).join(", ")}`,
);
