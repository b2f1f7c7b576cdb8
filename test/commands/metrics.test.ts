/** `ctx metrics` through the binary: the sessions of the per-user index, the textfile, the background refresh. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";
import { writeOwnSummary } from "../helpers/written.ts";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let index: string;
beforeEach(() => {
  t = tempDir();
  env = isolatedEnv(t.dir);
  index = join(env.XDG_STATE_HOME!, "ctx", "sessions");
  mkdirSync(index, { recursive: true });
  mkdirSync(env.TMPDIR!, { recursive: true });
});
afterEach(() => t.cleanup());

/** A session as `ctx track` leaves it: its state file under the project's .ctx/ and its index entry. */
function session(
  sid: string,
  projectName: string,
  over: Record<string, unknown> = {},
  state: Record<string, unknown> = {},
) {
  const project = join(t.dir, "code", projectName);
  const root = join(project, ".ctx");
  const statePath = join(root, "state", "sessions", `${sid}.json`);
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
  writeFileSync(statePath, JSON.stringify({ version: 1, session_id: sid, project, ...state }));
  const entry = {
    version: 1,
    session_id: sid,
    task_id: `chain-${sid.slice(0, 8)}`,
    agent: "claude",
    project,
    root,
    state_path: statePath,
    model: "claude-opus-5-5",
    used_pct: 66,
    used_tokens: 132_000,
    window_size: 200_000,
    threshold_reached: "warning",
    auto_pause_active: false,
    respawn: null,
    updated_at: new Date().toISOString(),
    ...over,
  };
  writeFileSync(join(index, `${sid}.json`), JSON.stringify(entry));
  return { project, root };
}

const metrics = (args: string[] = [], extra: Record<string, string> = {}) =>
  runCtx(["metrics", ...args], { env: { ...env, ...extra }, cwd: t.dir });

test("every live session, with its figures and labels; no path, no prompt text; ended ones left out", async () => {
  const a = session("aaaaaaaa-0000-4000-8000-000000000001", "api");
  session("bbbbbbbb-0000-4000-8000-000000000002", "web", {
    agent: "codex",
    used_pct: 91,
    used_tokens: 235_000,
    window_size: 258_400,
    threshold_reached: "auto_pause",
    limit: "You've hit your session limit · resets 3:03pm (UTC)",
    resets_at: "2026-12-02T15:03:00.000Z",
    respawn: { name: "ctx-web", state: "watching", cycles: 4 },
  });
  session("cccccccc-0000-4000-8000-000000000003", "old", {}, { last_event: "SessionEnd" });
  // the api session's status line knows its label; its monitor sent 3 warnings; its chain has a summary
  const bridge = {
    session_id: "aaaaaaaa-0000-4000-8000-000000000001",
    used_pct: 66,
    used_tokens: 132_000,
    context_window_size: 200_000,
    timestamp: Date.now() / 1000,
    label: "work:1",
  };
  writeFileSync(join(env.TMPDIR!, "claude-ctx-aaaaaaaa-0000-4000-8000-000000000001.json"), JSON.stringify(bridge));
  mkdirSync(join(a.root, "state", "monitor"), { recursive: true });
  const monitor = { version: 1, last_level: null, calls_since: 0, fired: 0, updated_ms: 1, sent_total: 3 };
  writeFileSync(join(a.root, "state", "monitor", "aaaaaaaa-0000-4000-8000-000000000001.json"), JSON.stringify(monitor));
  mkdirSync(join(a.root, "sessions"), { recursive: true });
  writeOwnSummary(
    env,
    join(a.root, "sessions", "summary-chain-aaaaaaaa-20261201-120000.md"),
    "# Handoff\nsecret prompt text\n",
  );

  const r = await metrics();
  expect(r.code).toBe(0);
  const host = hostname();
  const api = `agent="claude",project="api",session="work:1",host="${host}"`;
  const web = `agent="codex",project="web",session="ctx-web",host="${host}"`;
  expect(r.stdout).toContain(`ctx_context_used_ratio{${api}} 0.66\n`);
  expect(r.stdout).toContain(`ctx_context_used_ratio{${web}} 0.91\n`);
  expect(r.stdout).toContain(`ctx_context_used_tokens{${web}} 235000\n`);
  expect(r.stdout).toContain(`ctx_context_window_tokens{${web}} 258400\n`);
  expect(r.stdout).toContain(`ctx_context_level{${api}} 1\n`);
  expect(r.stdout).toContain(`ctx_context_level{${web}} 3\n`);
  expect(r.stdout).toContain(
    `ctx_usage_limit_reset_timestamp_seconds{${web}} ${Date.parse("2026-12-02T15:03:00Z") / 1000}\n`,
  );
  expect(r.stdout).toContain(`ctx_warnings_sent_total{${api}} 3\n`);
  expect(r.stdout).toContain(`ctx_warnings_sent_total{${web}} 0\n`);
  expect(r.stdout).toContain(`ctx_respawn_cycles_total{${web}} 4\n`);
  expect(r.stdout).toMatch(new RegExp(`ctx_summary_age_seconds\\{${api.replace(/[{}]/g, "\\$&")}\\} \\d+\\n`));
  expect(r.stdout).not.toContain(`ctx_summary_age_seconds{${web}}`);
  expect(r.stdout).not.toContain('project="old"');
  expect(r.stdout).not.toContain(t.dir);
  expect(r.stdout).not.toContain("secret");
});

test("--textfile writes DIR/ctx.prom atomically (0644, no temp file left); a missing directory is exit 1 with a hint", async () => {
  session("aaaaaaaa-0000-4000-8000-000000000001", "api");
  const dir = join(t.dir, "textfile");
  mkdirSync(dir);
  const r = await metrics(["--textfile", dir]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("");
  expect(readdirSync(dir)).toEqual(["ctx.prom"]);
  expect(statSync(join(dir, "ctx.prom")).mode & 0o777).toBe(0o644);
  expect(readFileSync(join(dir, "ctx.prom"), "utf8")).toContain('ctx_context_used_ratio{agent="claude",project="api"');
  const missing = await metrics(["--textfile", join(t.dir, "nope")]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("--collector.textfile.directory");
});

test("with metrics.textfile_dir set, a hook refreshes the textfile in the background, at most once a minute", async () => {
  const { project } = session("aaaaaaaa-0000-4000-8000-000000000001", "api");
  const dir = join(t.dir, "textfile");
  mkdirSync(dir);
  const hookEnv = { ...env, CTX_METRICS_TEXTFILE_DIR: dir, CLAUDE_PROJECT_DIR: project };
  const payload = (event: string) =>
    JSON.stringify({ session_id: "dddddddd-0000-4000-8000-000000000004", cwd: project, hook_event_name: event });
  expect((await runCtx(["track"], { env: hookEnv, cwd: project, stdin: payload("SessionStart") })).code).toBe(0);
  const prom = join(dir, "ctx.prom");
  for (let i = 0; i < 100 && !existsSync(prom); i++) await Bun.sleep(100);
  expect(readFileSync(prom, "utf8")).toContain('project="api"');
  const marker = join(env.XDG_STATE_HOME!, "ctx", "metrics-refresh.json");
  const first = statSync(marker).mtimeMs;
  expect((await runCtx(["track"], { env: hookEnv, cwd: project, stdin: payload("Stop") })).code).toBe(0);
  expect(statSync(marker).mtimeMs).toBe(first); // not due again within the minute
  // without the key, nothing is started
  const off = join(t.dir, "off");
  mkdirSync(off);
  expect(
    (await runCtx(["track"], { env: { ...env, CLAUDE_PROJECT_DIR: project }, cwd: project, stdin: payload("Stop") }))
      .code,
  ).toBe(0);
  expect(readdirSync(off)).toEqual([]);
});
