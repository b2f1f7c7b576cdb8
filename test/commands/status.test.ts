import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let index: string;
beforeEach(() => {
  t = tempDir();
  env = isolatedEnv(t.dir);
  index = join(env.XDG_STATE_HOME!, "ctx", "sessions");
  mkdirSync(index, { recursive: true });
});
afterEach(() => t.cleanup());

/** Writes an index entry in the documented format (docs/state.md), updated `ageS` ago. */
function entry(sid: string, project: string, usedPct: number, ageS = 5, over: Record<string, unknown> = {}): void {
  // the state root is real (a session whose state is gone shows as ended), the project a name only
  const root = project.startsWith(t.dir) ? join(project, ".ctx") : join(t.dir, "roots", project, ".ctx");
  const state = join(root, "state", "sessions", `${sid}.json`);
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
  if (!existsSync(state)) writeFileSync(state, JSON.stringify({ version: 1, session_id: sid, project }));
  writeFileSync(
    join(index, `${sid}.json`),
    JSON.stringify(
      {
        version: 1,
        session_id: sid,
        project,
        root,
        state_path: join(root, "state", "sessions", `${sid}.json`),
        model: "claude-sonnet-4-5",
        used_pct: usedPct,
        used_tokens: usedPct * 2000,
        window_size: 200000,
        threshold_reached: null,
        auto_pause_active: false,
        respawn: null,
        updated_at: new Date(Date.now() - ageS * 1000).toISOString(),
        ...over,
      },
      null,
      2,
    ),
  );
}
const status = (args: string[], extra: Record<string, string> = {}) =>
  runCtx(["status", ...args], { env: { ...env, NO_COLOR: "1", ...extra }, cwd: t.dir });
const json = async (args: string[], extra: Record<string, string> = {}) => {
  const r = await status(["--json", ...args], extra);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe("ctx status", () => {
  test("a table of live sessions, highest usage first, stale ones hidden and counted", async () => {
    entry("aaaaaaaa-1111", "/work/alpha", 42);
    entry("bbbbbbbb-2222", "/work/beta", 91, 10, {
      threshold_reached: "auto_pause",
      auto_pause_active: true,
      respawn: { state: "watching" },
    });
    entry("cccccccc-3333", "/work/gamma", 99, 7200);
    const r = await status([]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^PROJECT\s+SESSION\s+TASK\s+MODEL\s+USED\s+TOKENS\s+LEVEL\s+STATE\s+UPDATED$/);
    expect(lines[1]).toMatch(
      /^\/work\/beta\s+bbbbbbbb\s+-\s+Sonnet 4\.5\s+█████████░ {2}91%\s+182k\/200k\s+auto_pause\s+paused,respawn:watching\s+10s ago$/,
    );
    expect(lines[2]).toMatch(/^\/work\/alpha\s+aaaaaaaa\s+.*42%\s+84k\/200k\s+ok\s+-\s+5s ago$/);
    expect(lines[3]).toBe("1 stale session hidden (--all shows it)");
    expect(r.stdout).not.toContain("\x1b[");
  });

  test("--all shows stale sessions; status.stale_after_s moves the line", async () => {
    entry("old", "/work/gamma", 99, 7200);
    expect((await status(["--all"])).stdout).toContain("/work/gamma");
    expect((await status([], { CTX_STATUS_STALE_AFTER_S: "10000" })).stdout).toContain("/work/gamma");
  });

  test("a session whose state says SessionEnd shows as ended (not stale) until status.ended_visible_s", async () => {
    const project = join(t.dir, "p");
    entry("ended1", project, 50);
    mkdirSync(join(project, ".ctx", "state", "sessions"), { recursive: true });
    writeFileSync(
      join(project, ".ctx", "state", "sessions", "ended1.json"),
      JSON.stringify({ version: 1, session_id: "ended1", last_event: "SessionEnd" }),
    );
    const doc = await json([]);
    expect(doc.sessions[0]).toMatchObject({ session_id: "ended1", ended: true, stale: false, ended_long_ago: false });
    expect(doc.hidden_stale).toBe(0);
    const table = (await status([])).stdout;
    expect(table).toMatch(/ended1\s.*\s50%\s.*\sended\s/);
    const later = await status(["--json"], { CTX_STATUS_ENDED_VISIBLE_S: "0" });
    expect(JSON.parse(later.stdout)).toMatchObject({ hidden_stale: 0, hidden_ended: 1, sessions: [] });
    expect((await status([], { CTX_STATUS_ENDED_VISIBLE_S: "0" })).stdout).toContain(
      "1 ended session hidden (--all shows it)",
    );
  });

  test("a session whose project's .ctx/ is gone shows as ended, only 'ended' (no paused, no limit), and prune removes its entry", async () => {
    const project = join(t.dir, "cleaned");
    entry("dead1", project, 92, 5, {
      threshold_reached: "auto_pause",
      auto_pause_active: true,
      limit: "You've hit your session limit · resets 3:03pm (UTC)",
      resets_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect((await json([])).sessions[0]).toMatchObject({ session_id: "dead1", ended: false });
    rmSync(join(project, ".ctx"), { recursive: true }); // git clean -fdx
    expect((await json([])).sessions[0]).toMatchObject({ session_id: "dead1", ended: true, stale: false });
    const row = (await status([])).stdout.split("\n").find((l) => l.includes("dead1"))!;
    expect(row).toMatch(/\sended\s/);
    expect(row).not.toContain("paused");
    expect(row).not.toContain("limit");
    const dry = await runCtx(["prune", "--dry-run"], { env, cwd: t.dir });
    expect(dry.stdout).toContain("1 index entr");
    expect((await runCtx(["prune"], { env, cwd: t.dir })).code).toBe(0);
    expect(existsSync(join(index, "dead1.json"))).toBe(false);
  });

  test("after /clear the new session has its pane's label at once; a supervised one its supervisor's name; no two rows share a label", async () => {
    const old = "5015b560-0000-4000-8000-000000000001";
    const next = "77aa0000-0000-4000-8000-000000000002";
    const bridge = { session_id: old, used_pct: 40, timestamp: Date.now() / 1000, label: "api" };
    mkdirSync(env.TMPDIR!, { recursive: true });
    writeFileSync(join(env.TMPDIR!, `claude-ctx-${old}.json`), JSON.stringify(bridge));
    entry(old, "/work/app", 40);
    entry(next, "/work/app", 0, 1, { previous_session_id: old, used_tokens: 0 });
    entry("99990000-0000-4000-8000-000000000003", "/work/web", 10, 1, {
      respawn: { name: "ctx-web", state: "watching", cycles: 0 },
    });
    const rows = (await json([])).sessions as Array<{ session_id: string; label: string }>;
    const labelOf = (sid: string) => rows.find((r) => r.session_id === sid)?.label;
    expect(labelOf(old)).toBe("api (5015b560)");
    expect(labelOf(next)).toBe("api (77aa0000)");
    expect(labelOf("99990000-0000-4000-8000-000000000003")).toBe("ctx-web");
  });

  test("--json gives every field; --min filters at or above", async () => {
    entry("s80", "/work/a", 80);
    entry("s79", "/work/b", 79);
    entry("s95", "/work/c", 95, 1, { threshold_reached: "critical" });
    const doc = await json(["--min", "80"]);
    expect(doc.version).toBe(1);
    expect(doc.sessions.map((s: any) => s.session_id)).toEqual(["s95", "s80"]);
    expect(doc.sessions[0]).toMatchObject({
      project: "/work/c",
      model: "claude-sonnet-4-5",
      used_pct: 95,
      used_tokens: 190000,
      window_size: 200000,
      level: "critical",
      stale: false,
      auto_pause_active: false,
      respawn: null,
    });
    expect(doc.sessions[0].age_s).toBeLessThan(60);
  });

  test("the window ctx used and its source: TOKENS in the table, context_window_source in --json", async () => {
    entry("w1m", "/work/a", 15, 1, {
      used_tokens: 150_000,
      window_size: 1_000_000,
      context_window_source: "client_default",
    });
    entry("wold", "/work/b", 10, 1, { context_window_source: undefined });
    const doc = await json([]);
    const byId = Object.fromEntries(doc.sessions.map((s: any) => [s.session_id, s]));
    expect(byId.w1m).toMatchObject({ window_size: 1_000_000, context_window_source: "client_default" });
    expect(byId.wold.context_window_source).toBeNull();
    const r = await status([]);
    // the default budget (200k) applies to the 1M window: 150k of 200k, 75 %
    expect(r.stdout).toMatch(/w1m\s.*75%\s+150k\/200k·1M/);
  });

  test("--project keeps that directory and below, resolved against the working directory", async () => {
    entry("in", join(t.dir, "app"), 10);
    entry("below", join(t.dir, "app", "pkg"), 20);
    entry("out", join(t.dir, "application"), 30);
    const doc = await json(["--project", "app"]);
    expect(doc.sessions.map((s: any) => s.session_id)).toEqual(["below", "in"]);
  });

  test("broken, foreign and lock files in the index are skipped", async () => {
    entry("good", "/work/a", 10);
    writeFileSync(join(index, "broken.json"), "{ nope");
    writeFileSync(join(index, "good.json.lock"), "123 456");
    writeFileSync(join(index, "mismatch.json"), JSON.stringify({ session_id: "other" }));
    writeFileSync(join(index, ".good.json.1.tmp"), "{}");
    const doc = await json([]);
    expect(doc.sessions.map((s: any) => s.session_id)).toEqual(["good"]);
  });

  test("no index at all: a friendly line, exit 0", async () => {
    const r = await runCtx(["status"], { env: isolatedEnv(join(t.dir, "fresh")), cwd: t.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("No ctx sessions to show.\n");
  });

  test("FORCE_COLOR colours, NO_COLOR wins over it", async () => {
    entry("s1", "/work/a", 90, 1, { threshold_reached: "auto_pause" });
    expect((await status([], { NO_COLOR: "", FORCE_COLOR: "1" })).stdout).toContain("\x1b[31mauto_pause");
    expect((await status([], { NO_COLOR: "1", FORCE_COLOR: "1" })).stdout).not.toContain("\x1b[");
  });

  test("bad arguments exit 2", async () => {
    expect((await status(["--min", "lots"])).code).toBe(2);
    expect((await status(["--frob"])).code).toBe(2);
  });

  test("a held lock on an index entry does not block it", async () => {
    entry("locked", "/work/a", 10);
    writeFileSync(join(index, "locked.json.lock"), `${process.pid} ${Date.now()} nonce`);
    const r = await runCtx(["status", "--json"], { env: { ...env, NO_COLOR: "1" }, cwd: t.dir, countWaits: true });
    expect(r.waited!.sleptMs).toBe(0); // it never waits on a lock, as ctx counts its sleeps
    expect(JSON.parse(r.stdout).sessions[0].session_id).toBe("locked");
  });

  test("--watch refreshes until SIGINT, then exits 0", async () => {
    entry("w1", "/work/a", 10);
    const proc = Bun.spawn([CTX_BIN, "status", "--watch", "--interval", "0.2"], {
      env: { ...env, NO_COLOR: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const chunks: string[] = [];
    const reader = (async () => {
      for await (const c of proc.stdout) chunks.push(new TextDecoder().decode(c));
    })();
    await Bun.sleep(700);
    entry("w2", "/work/b", 20);
    await Bun.sleep(500);
    proc.kill("SIGINT");
    const code = await proc.exited;
    await reader;
    const out = chunks.join("");
    expect(code).toBe(0);
    expect(out.match(/ctx status · /g)!.length).toBeGreaterThanOrEqual(3);
    expect(out).toContain("/work/b");
    expect(await new Response(proc.stderr).text()).toBe("");
  });

  test("--watch --json prints one document per line", async () => {
    entry("w3", "/work/c", 30);
    const proc = Bun.spawn([CTX_BIN, "status", "--watch", "--json", "--interval", "0.2"], {
      env: { ...env, NO_COLOR: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    await Bun.sleep(800);
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(0);
    const lines = (await new Response(proc.stdout).text()).trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line).sessions[0].session_id).toBe("w3");
  });

  test("shows a supervisor's recent events, and 'gone' once its process died (kill -9)", async () => {
    const rec = join(t.dir, "w", ".ctx", "state", "respawn", "sup.json");
    mkdirSync(join(rec, ".."), { recursive: true });
    const dead = Bun.spawn(["sleep", "30"]);
    dead.kill(9);
    await dead.exited;
    const events = Array.from({ length: 8 }, (_, i) => ({
      at: new Date().toISOString(),
      event: i === 7 ? "cycle_done" : "idle",
      detail: `n${i}`,
    }));
    writeFileSync(rec, JSON.stringify({ version: 1, name: "sup", pid: dead.pid, phase: "watching", events }));
    entry("sup1", join(t.dir, "w"), 80, 5, { respawn: { name: "sup", state: "watching", cycles: 1, state_path: rec } });
    const doc = await json([]);
    expect(doc.sessions[0].respawn).toBe("gone");
    expect(doc.sessions[0].respawn_events.map((e: { detail: string }) => e.detail)).toEqual([
      "n3",
      "n4",
      "n5",
      "n6",
      "n7",
    ]);
    expect((await status([])).stdout).toContain("respawn:gone");
    writeFileSync(rec, JSON.stringify({ version: 1, name: "sup", pid: process.pid, phase: "watching", events }));
    expect((await json([])).sessions[0].respawn).toBe("watching");
  });
});
