/**
 * The real Codex CLI 0.169.0, headless (`codex exec --json`), wired by `ctx install --codex` (hooks
 * trusted, no bypass flag) against the fake Responses API: `ctx monitor` warns on PostToolUse at
 * the levels, with Codex's own used %, in the model's next request; the summary is written at
 * CRITICAL from the rollout; a new thread's first request carries it; `ctx status` lists the session.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { codexUsedPct } from "../../src/core/agents/codex.ts";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { CODEX_WINDOW, makeCodexSandbox, runCodexExec, type CodexSandbox } from "./codex.ts";
import { startFakeCodex, type CodexRequest, type CodexTurn, type FakeCodex } from "./fake-codex.ts";

let api: FakeCodex | undefined;
let sb: CodexSandbox | undefined;
afterEach(async () => {
  await api?.stop();
  sb?.cleanup();
  api = sb = undefined;
});

/** Input tokens whose request Codex's UI shows at `pct` % (total = input + 10 output). */
const at = (pct: number) => 12_000 + pct * 2_464 - 10;
const cmd = (command: string, pct: number): CodexTurn => ({ cmd: command, inputTokens: at(pct) });
const waitFor = async (what: string, ok: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
};
/** The developer messages Codex added since the model's last tool call: what hooks said about it. */
const newContext = (q: CodexRequest): string => {
  const input: any[] = q.body.input;
  const last = input.findLastIndex((i) => i.type === "function_call");
  return input
    .slice(last + 1)
    .filter((i) => i.type === "message" && i.role === "developer")
    .map((i) => i.content.map((c: any) => c.text).join("\n"))
    .join("\n");
};

test("codex: WARNING and CRITICAL at Codex's own figure, the summary at CRITICAL, the next thread gets it", async () => {
  const first: CodexTurn[] = [
    cmd("echo one", 40),
    cmd("echo two", 64), // below 65 %: nothing
    cmd("ls /nonexistent-ctx-codex", 66), // WARNING (a failing command: exit 2)
    cmd("echo four", 68), // WARNING again, debounced
    cmd("echo five", 77), // CRITICAL at once, and the summary
    { text: "All five steps done.", inputTokens: at(78) },
  ];
  let phase = 1;
  api = await startFakeCodex((_req, turn) =>
    phase === 1 ? first[turn] : { text: "Continuing.", inputTokens: 20_000 },
  );
  sb = makeCodexSandbox(api.url);
  const env = { ...sb.env, PATH: `${dirname(CTX_BIN)}:${sb.env.PATH}` };
  expect((await runCtx(["install", "--codex"], { env, cwd: sb.project })).code).toBe(0);

  const r = await runCodexExec(sb, "Run the five steps.", env);
  expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
  const reqs = api.turnRequests();
  expect(reqs).toHaveLength(6);
  const said = reqs.map((q) => {
    const text = newContext(q);
    return text.includes("CONTEXT CRITICAL") ? "C" : text.includes("CONTEXT WARNING") ? "W" : "-";
  });
  expect(said).toEqual(["-", "-", "-", "W", "-", "C"]);
  expect(newContext(reqs[3]!)).toContain("CONTEXT WARNING: 66% of the context window is used, 34% remains.");
  expect(newContext(reqs[5]!)).toContain("CONTEXT CRITICAL: 77% of the context window is used, 23% remains.");
  expect(codexUsedPct(at(64) + 10, CODEX_WINDOW)).toBe(64); // the figure at which nothing was said

  // track: the state follows the rollout, in Codex's own figure.
  const sid = r.events.find((e) => e.type === "thread.started").thread_id as string;
  const root = join(sb.project, ".ctx");
  const state = JSON.parse(readFileSync(join(root, "state", "sessions", `${sid}.json`), "utf8"));
  expect(state).toMatchObject({ model: "gpt-5.5", window_size: CODEX_WINDOW, used_pct: 78, tool_calls: 5 });
  expect(state.transcript_path).toMatch(/\/sessions\/\d{4}\/\d\d\/\d\d\/rollout-.*\.jsonl$/);

  // The summary ctx finalize wrote at CRITICAL, from the rollout.
  const sessions = join(root, "sessions");
  const summaries = () => (existsSync(sessions) ? readdirSync(sessions).filter((f) => /^summary-.*\.md$/.test(f)) : []);
  await waitFor("the summary", () => summaries().length > 0);
  const summary = readFileSync(join(sessions, summaries()[0]!), "utf8");
  expect(summary).toContain("> Run the five steps.");
  expect(summary).toContain("- FAIL `ls /nonexistent-ctx-codex`");
  expect(summary).toContain("## How to continue");

  // ctx status lists the Codex session.
  const status = await runCtx(["status", "--json"], { env, cwd: sb.project });
  expect(status.stdout).toContain(sid);

  // A new thread in the same project: its SessionStart (startup) injects the chain's summary, whole.
  phase = 2;
  const before = api.turnRequests().length;
  const next = await runCodexExec(sb, "Continue.", env);
  expect(next.code).toBe(0);
  const firstOfNext = api.turnRequests()[before]!;
  const injected = JSON.stringify(firstOfNext.body.input);
  expect(injected).toContain("Handoff summary");
  expect(injected).toContain("ls /nonexistent-ctx-codex");
  expect(injected).toContain("## How to continue");
}, 180_000);

test("codex: an automatic compaction is no context reading, and its SessionStart (compact) gets the summary", async () => {
  // The compaction request carries the whole history: the fake reports it as 250,000 tokens.
  let compacted = false;
  const script: CodexTurn[] = [
    cmd("echo one", 40),
    cmd("echo critical", 77), // CRITICAL: the summary is written
    { cmd: "echo big", inputTokens: 250_000 }, // over Codex's ~90 % of 272,000: it compacts before the next request
  ];
  api = await startFakeCodex((_req, turn) => {
    if (api!.requests.some((q) => q.kind === "compaction")) compacted = true;
    if (!compacted) return script[turn];
    // After the compaction: one more tool call at 20 %, then the end.
    return turn === 0 ? cmd("echo after", 20) : { text: "Done after the compaction.", inputTokens: at(21) };
  }, 260_000);
  sb = makeCodexSandbox(api.url);
  const env = { ...sb.env, PATH: `${dirname(CTX_BIN)}:${sb.env.PATH}` };
  expect((await runCtx(["install", "--codex"], { env, cwd: sb.project })).code).toBe(0);
  const r = await runCodexExec(sb, "Run the steps.", env);
  expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(api.requests.filter((q) => q.kind === "compaction")).toHaveLength(1);
  const sid = r.events.find((e) => e.type === "thread.started").thread_id as string;
  const state = JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", `${sid}.json`), "utf8"));
  // The newest reading is the request after the compaction, in Codex's figure; the peak is 97 %, never the
  // compaction request's 260,010 tokens (100 %).
  expect(state).toMatchObject({ used_pct: 21, peak_pct: codexUsedPct(250_010, CODEX_WINDOW) });
  expect(state.compactions).toBeGreaterThanOrEqual(1);
  // The first request after the compaction carries the chain's summary (SessionStart, source compact).
  const after = api.turnRequests().filter((q) => JSON.stringify(q.body.input).includes("FAKE-COMPACTION-SUMMARY"));
  expect(after.length).toBeGreaterThan(0);
  expect(JSON.stringify(after[0]!.body.input)).toContain("Handoff summary");
  // Below the warning level again: the monitor said nothing after the compaction.
  expect(newContext(after.at(-1)!)).not.toContain("CONTEXT");
}, 180_000);
