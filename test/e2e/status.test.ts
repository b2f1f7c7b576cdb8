/**
 * `ctx status` against state written by real runs: `ctx track` wired into the
 * real client (two finished headless sessions and one live interactive one)
 * fills the per-user index; status shows, filters and ages it.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { CLAUDE_BIN, hookEntry, makeSandbox, runClaudeP, TEST_MODEL, type Sandbox } from "./claude.ts";
import { startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
import { submit } from "./submit.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
  await tmux?.kill().catch(() => {});
  await api?.stop();
  sandbox?.cleanup();
  tmux = api = sandbox = undefined;
});

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "PreCompact",
  "SessionEnd",
];
const reply = (used: number): Turn => ({
  content: [{ type: "text", text: `at ${used}` }],
  usage: { input_tokens: 100, cache_read_input_tokens: used - 100, output_tokens: 5 },
});

async function status(args: string[], extra: Record<string, string> = {}) {
  const proc = Bun.spawn([CTX_BIN, "status", ...args], {
    env: { ...sandbox!.env, NO_COLOR: "1", ...extra },
    cwd: sandbox!.project,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return stdout;
}
const json = async (args: string[], extra: Record<string, string> = {}) =>
  JSON.parse(await status(["--json", ...args], extra));

test("e2e: status lists sessions that real runs tracked: table, JSON, --min, ended sessions shown, then hidden", async () => {
  // main requests: headless run 1 (92 %), headless run 2 (30 %), then two turns of the interactive session (86 %)
  api = await startFakeApi([reply(184_000), reply(60_000), reply(172_000), reply(172_000)]);
  const hooks: Record<string, object[]> = {};
  for (const e of EVENTS) hooks[e] = hookEntry(`${CTX_BIN} track`, e.startsWith("PostToolUse") ? "*" : undefined);
  sandbox = await makeSandbox({ apiUrl: api.url, settings: { hooks } });
  const high = await runClaudeP(sandbox, "first job");
  const low = await runClaudeP(sandbox, "second job");
  expect([high.code, low.code]).toEqual([0, 0]);

  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL],
    env: sandbox.env,
    cwd: sandbox.project,
  });
  await tmux.waitFor(/^❯/m, 30_000);
  await submit(tmux, "interactive job", () => api!.mainRequests().length >= 3);
  await tmux.waitFor(/at 172000/, 30_000);
  // track reads the usage of a reply on the next event that finds it in the transcript: a second prompt
  await submit(tmux, "and then", () => api!.mainRequests().length >= 4);
  const index = join(sandbox.env.XDG_STATE_HOME!, "ctx", "sessions");
  const deadline = Date.now() + 30_000;
  let live: any;
  while (!live) {
    if (Date.now() > deadline)
      throw new Error(
        `no live session in the index: ${await status(["--json", "--all"])}; screen:\n${await tmux.capture()}`,
      );
    await Bun.sleep(500);
    if (existsSync(index) && readdirSync(index).filter((n) => n.endsWith(".json")).length === 3) {
      live = (await json(["--all"])).sessions.find((s: any) => s.used_pct === 86);
    }
  }

  // default: the live session first, then the two that ended moments ago (ended, not stale)
  const recent = await json([]);
  expect({ stale: recent.hidden_stale, ended: recent.hidden_ended }).toEqual({ stale: 0, ended: 0 });
  expect(recent.sessions.map((s: any) => [s.used_pct, s.ended, s.stale])).toEqual([
    [86, false, false],
    [92, true, false],
    [30, true, false],
  ]);
  // once status.ended_visible_s has passed, only the live session; the ended ones are hidden and counted
  const later = { CTX_STATUS_ENDED_VISIBLE_S: "0" };
  const shown = await json([], later);
  expect({ stale: shown.hidden_stale, ended: shown.hidden_ended }).toEqual({ stale: 0, ended: 2 });
  expect(shown.sessions).toHaveLength(1);
  expect(shown.sessions[0]).toMatchObject({
    project: sandbox.project,
    model: "claude-sonnet-4-5",
    used_pct: 86,
    used_tokens: 172_000,
    window_size: 200_000,
    level: "auto_pause", // 172k (86 %) is past the 200k window's auto-compact point, 167k: auto_pause lands there
    ended: false,
    stale: false,
  });
  expect(shown.sessions[0].age_s).toBeGreaterThanOrEqual(0); // not stale (above): how recent is the clock's business

  const all = await json(["--all"], later);
  expect(all.sessions.map((s: any) => s.used_pct)).toEqual([86, 92, 30]);
  const ids = [high.json.session_id, low.json.session_id];
  expect(all.sessions.slice(1).map((s: any) => s.session_id)).toEqual(ids);
  expect(all.sessions[1]).toMatchObject({ level: "auto_pause", auto_pause_active: true, ended: true, stale: false });
  expect(all.sessions[2]).toMatchObject({ level: "ok", auto_pause_active: false, ended: true, stale: false });

  expect((await json(["--all", "--min", "80"])).sessions.map((s: any) => s.used_pct)).toEqual([86, 92]);
  expect((await json(["--min", "90"], later)).sessions).toEqual([]);
  expect((await json(["--all", "--project", "/nonexistent"])).sessions).toEqual([]);
  expect((await json(["--all", "--project", sandbox.project])).sessions).toHaveLength(3);

  const table = (await status([], later)).trimEnd().split("\n");
  expect(table).toHaveLength(3);
  expect(table[1]).toMatch(
    new RegExp(
      `${shown.sessions[0].session_id.slice(0, 8)}\\s+Sonnet 4\\.5\\s+█████████░  86%\\s+172k/200k\\s+auto_pause\\s+paused\\s+\\d+s ago$`,
    ),
  );
  expect(table[2]).toBe("2 ended sessions hidden (--all shows them)");
  const full = (await status([])).trimEnd().split("\n");
  expect(full).toHaveLength(4);
  // an ended session is only ended: its pause ended with it (never `ended,paused`)
  expect(full[2]).toMatch(/92%\s+184k\/200k\s+auto_pause\s+ended\s+\d+s ago$/);
}, 150_000);
