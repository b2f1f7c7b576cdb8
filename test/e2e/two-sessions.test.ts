/**
 * Issue 15 end to end: two interactive Claude Code sessions in one project
 * (real client, real tmux, fake API), each with its own handoff summary, the
 * other's written later. After `/clear`, and after a compaction, each fresh
 * context gets its own chain's summary, never the other's; a plain startup
 * without a link only gets a hint.
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { ALLOWED_TOOLS, CLAUDE_BIN, hookEntry, makeSandbox, runClaudeP, TEST_MODEL, type Sandbox } from "./claude.ts";
import { allText, lastUserText, startFakeApi, type FakeApi, type LoggedRequest } from "./fake-api.ts";
import { waitUntil } from "./respawn-harness.ts";
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

/** The main request whose last user message contains `marker` (waits for it). */
async function requestWith(marker: string): Promise<LoggedRequest> {
  return waitUntil(
    () => api!.mainRequests().find((r) => lastUserText(r).includes(marker)),
    30_000,
    () => `no request with ${marker}; last: ${api!.mainRequests().map(lastUserText).slice(-3).join(" | ")}`,
  );
}

/** Runs `ctx finalize --session <sid>` and returns the summary path it printed. */
function finalize(sid: string): string {
  const r = Bun.spawnSync([CTX_BIN, "finalize", "--session", sid], { cwd: sandbox!.project, env: sandbox!.env });
  expect(r.exitCode).toBe(0);
  return r.stdout.toString().trim();
}

/** The tracked session whose transcript contains `marker`, newest first when several do. */
function sessionWith(marker: string, previous?: string): string {
  const dir = join(sandbox!.project, ".ctx", "state", "sessions");
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const s = JSON.parse(readFileSync(join(dir, name), "utf8"));
    if (previous !== undefined && s.previous_session_id !== previous) continue;
    if (previous !== undefined || readFileSync(s.transcript_path, "utf8").includes(marker)) return s.session_id;
  }
  throw new Error(`no session with ${marker}`);
}

test("e2e: two sessions in one project each continue their own work after /clear and after a compaction", async () => {
  api = await startFakeApi((req) => {
    const user = lastUserText(req);
    const text = user.includes("ALPACA")
      ? "Working on the alpaca exporter."
      : user.includes("BISON")
        ? "Working on the bison importer."
        : "ok.";
    return { content: [{ type: "text", text }], usage: { input_tokens: 100, cache_read_input_tokens: 30_000 } };
  });
  const hooks: Record<string, object[]> = {};
  for (const e of ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact", "SessionEnd"])
    hooks[e] = hookEntry(`${CTX_BIN} track`, e === "PostToolUse" ? "*" : undefined);
  hooks.SessionStart = [...hooks.SessionStart!, ...hookEntry(`${CTX_BIN} resume --hook`)];
  sandbox = await makeSandbox({ apiUrl: api.url, settings: { hooks } });
  const start = async (name: string, prompt: string) => {
    const pane = await startTmux({
      dir: sandbox!.tmp,
      name,
      command: [CLAUDE_BIN, "--model", TEST_MODEL, "--allowedTools", ...ALLOWED_TOOLS],
      env: sandbox!.env,
      cwd: sandbox!.project,
    });
    panes.push(pane);
    await pane.waitFor(/for shortcuts|❯/, 30_000);
    await pane.sendText(prompt);
    await requestWith(prompt);
    return pane;
  };
  const a = await start("alpaca", "ALPACA-1: build the alpaca exporter");
  const b = await start("bison", "BISON-1: build the bison importer");
  await Bun.sleep(1500); // the Stop hooks of both turns
  const a1 = sessionWith("ALPACA-1");
  const b1 = sessionWith("BISON-1");
  const summaryA1 = finalize(a1);
  await Bun.sleep(1100); // B's summary is the newer one
  const summaryB1 = finalize(b1);

  // /clear in A: A's own summary, although B's is newer.
  await a.sendText("/clear");
  await Bun.sleep(2000);
  await a.sendText("NEXT-A");
  const afterClearA = allText(await requestWith("NEXT-A"));
  expect(afterClearA).toContain(`Summary file: ${summaryA1}`);
  expect(afterClearA).toContain("> ALPACA-1: build the alpaca exporter");
  expect(afterClearA).not.toContain("BISON");
  // /clear in B: B's own, still unconsumed.
  await b.sendText("/clear");
  await Bun.sleep(2000);
  await b.sendText("NEXT-B");
  const afterClearB = allText(await requestWith("NEXT-B"));
  expect(afterClearB).toContain(`Summary file: ${summaryB1}`);
  expect(afterClearB).not.toContain("ALPACA");

  // A compaction in A after both chains wrote new summaries (B's later): A's own chain again.
  await Bun.sleep(1500);
  const a2 = sessionWith("", a1);
  const b2 = sessionWith("", b1);
  const summaryA2 = finalize(a2);
  await Bun.sleep(1100);
  const summaryB2 = finalize(b2);
  for (const more of ["MORE-A-1", "MORE-A-2"]) {
    await a.sendText(more); // enough conversation for the client to compact
    await requestWith(more);
    await Bun.sleep(500);
  }
  await a.sendText("/compact");
  await waitUntil(
    () => api!.requests.some((r) => r.kind === "compact"),
    30_000,
    () => `no compaction request: ${api!.requests.map((r) => `${r.kind}:${lastUserText(r).slice(0, 60)}`).join(" | ")}`,
  );
  await Bun.sleep(2000);
  await a.sendText("NEXT-A2");
  const afterCompactA = allText(await requestWith("NEXT-A2"));
  expect(afterCompactA).toContain(`Summary file: ${summaryA2}`);
  expect(afterCompactA).not.toContain(summaryB2);

  // A plain startup has no link: a one-line hint at most, never a summary's body.
  const ledger = JSON.parse(readFileSync(join(sandbox.project, ".ctx", "state", "resume-ledger.json"), "utf8"));
  expect(Object.keys(ledger.consumed).sort()).toEqual(
    [summaryA1, summaryB1, summaryA2].map((p) => p.slice(p.lastIndexOf("/") + 1)).sort(),
  );
  expect((await runClaudeP(sandbox, "HELLO-C")).code).toBe(0);
  const plain = allText(await requestWith("HELLO-C"));
  expect(plain).toContain("ctx resume --latest");
  expect(plain).not.toContain("Handoff summary");
  // ctx status tells the two sessions apart by their chains.
  const status = Bun.spawnSync([CTX_BIN, "status", "--json", "--all"], { cwd: sandbox.project, env: sandbox.env });
  const rows = JSON.parse(status.stdout.toString()).sessions;
  const taskOf = (sid: string) => rows.find((r: any) => r.session_id === sid)?.task_id;
  expect(taskOf(a2)).toBe(taskOf(a1));
  expect(taskOf(b2)).toBe(taskOf(b1));
  expect(taskOf(a1)).not.toBe(taskOf(b1));
}, 180_000);
