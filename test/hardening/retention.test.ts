/**
 * Issue 21, class 9: nothing was ever pruned. Index entries, state files, summaries, records and
 * bridge files grew without end (the old code has no `ctx prune`, and a SessionStart removed
 * nothing but temp files). Now `ctx prune` applies retention by age and by count per chain, never
 * a live session's state nor the newest summary of an open chain, and a SessionStart starts it in
 * the background at most once per interval.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import {
  existsSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { populate, sid, stampAt, type Populated } from "../helpers/populate.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const DAY = 86_400_000;
let sb: ProjectSandbox;
let world: Populated;
let nowMs: number;

/**
 * 60 sessions, one a day, each 12 h older than its day (no age sits on the 30-day boundary), five
 * per chain (12 chains), the two newest not ended; 30 summaries (one every other session, each
 * with its three session record files); plus a session 90 days old whose Claude Code process still
 * runs (this test's own), in chain `chain-live`, with two summaries, 90 and 95 days old.
 */
beforeEach(() => {
  sb = projectSandbox();
  nowMs = Date.now() - DAY / 2;
  world = populate(sb.project, sb.env, { sessions: 60, perChain: 5, summaries: 30, stepMs: DAY, nowMs, live: 2 });
  const at = (path: string, text: string, ms: number) => {
    writeFileSync(path, text);
    utimesSync(path, ms / 1000, ms / 1000);
  };
  const old = nowMs - 90 * DAY;
  const state = {
    version: 1,
    session_id: "live-old",
    project: sb.project,
    task_id: "chain-live",
    updated_at: new Date(old).toISOString(),
    last_event: "PostToolUse",
    claude_pid: process.pid,
    next_session_id: null,
  };
  at(join(world.root, "state", "sessions", "live-old.json"), JSON.stringify(state), old);
  const entry = {
    version: 1,
    session_id: "live-old",
    project: sb.project,
    root: world.root,
    state_path: join(world.root, "state", "sessions", "live-old.json"),
    updated_at: state.updated_at,
  };
  at(join(sb.env.XDG_STATE_HOME!, "ctx", "sessions", "live-old.json"), JSON.stringify(entry), old);
  for (const days of [90, 95])
    at(
      join(world.root, "sessions", `summary-chain-live-${stampAt(nowMs - days * DAY)}.md`),
      "# s\n",
      nowMs - days * DAY,
    );
});

afterEach(() => sb.t.cleanup());

const ls = (dir: string) => readdirSync(dir).sort();
const states = () => ls(join(world.root, "state", "sessions"));
const summaries = () => ls(join(world.root, "sessions")).filter((n) => /^summary-.*\.md$/.test(n));
const records = () => ls(join(world.root, "sessions")).filter((n) => n.startsWith("session-"));
const index = () => ls(join(sb.env.XDG_STATE_HOME!, "ctx", "sessions"));
const bridges = () => ls(sb.env.TMPDIR!).filter((n) => n.startsWith("claude-ctx-"));

test("ctx prune, default retention (30 days, 5 per chain): what aged out goes, the live session and the open chain's newest summary stay", async () => {
  expect([states().length, summaries().length, records().length, index().length, bridges().length]).toEqual([
    61, 32, 90, 61, 60,
  ]);
  const r = await runCtx(["prune"], { env: sb.env, cwd: sb.project });
  expect(r.code).toBe(0);
  // Sessions 30..59 are over 30 days old: their states, index entries, bridge files and their
  // monitor, window and git-start files (3 x 30) go. Summaries of sessions 30, 32, …, 58 (15) and
  // the older one of chain-live go; each populated summary takes its 3 record files with it.
  expect(r.stdout).toContain("30 session states, 16 summaries, 45 session record files,");
  expect(r.stdout).toContain("30 index entries, 30 bridge files, 90 other files");
  expect(states()).toEqual([...Array.from({ length: 30 }, (_, i) => `${sid(i)}.json`), "live-old.json"].sort());
  expect(index()).toEqual([...Array.from({ length: 30 }, (_, i) => `${sid(i)}.json`), "live-old.json"].sort());
  expect(bridges()).toEqual(Array.from({ length: 30 }, (_, i) => `claude-ctx-${sid(i)}.json`).sort());
  const kept = world.summaries.filter((s) => s.session < 30).map((s) => s.name);
  expect(summaries()).toEqual([...kept, `summary-chain-live-${stampAt(nowMs - 90 * DAY)}.md`].sort());
  expect(records().length).toBe(45);
  for (const dir of ["monitor", "window", "git-start"]) expect(ls(join(world.root, "state", dir)).length).toBe(30);
  // Twins went with their summaries.
  expect(ls(join(world.root, "sessions")).filter((n) => /^summary-.*\.json$/.test(n)).length).toBe(15);
  const marker = JSON.parse(readFileSync(join(world.root, "state", "retention.json"), "utf8"));
  expect(marker.removed).toEqual({ sessions: 30, summaries: 16, records: 45, index: 30, bridges: 30, files: 90 });
});

test("keep_per_chain 1 with no age limit: each chain keeps only its newest summary and its record", async () => {
  const env = { ...sb.env, CTX_RETENTION_MAX_AGE_DAYS: "off", CTX_RETENTION_KEEP_PER_CHAIN: "1" };
  const dry = await runCtx(["prune", "--dry-run"], { env, cwd: sb.project });
  // 12 chains of 5 sessions: the 6 starting on an even session have 3 summaries, the other 6 have 2;
  // chain-live has 2. Dropped: 6 x 2 + 6 x 1 + 1 = 19 summaries, 18 of them with 3 record files.
  expect(dry.stdout).toContain("would remove");
  expect(dry.stdout).toContain("0 session states, 19 summaries, 54 session record files,");
  expect(summaries().length).toBe(32); // a dry run removes nothing
  const r = await runCtx(["prune"], { env, cwd: sb.project });
  expect(r.stdout).toContain("0 session states, 19 summaries, 54 session record files,");
  expect(r.stdout).toContain("0 index entries, 0 bridge files, 0 other files");
  const newest = new Map<string, string>();
  for (const s of [...world.summaries].reverse()) newest.set(world.chainOf(s.session), s.name);
  expect(summaries()).toEqual([...newest.values(), `summary-chain-live-${stampAt(nowMs - 90 * DAY)}.md`].sort());
  expect(states().length).toBe(61);
});

test("a SessionStart starts the background prune at most once per interval, and never on the first one", async () => {
  const start = (id: string) =>
    runCtx(["track"], {
      stdin: JSON.stringify({ session_id: id, cwd: sb.project, hook_event_name: "SessionStart", source: "startup" }),
      env: sb.env,
      cwd: sb.project,
    });
  const marker = join(world.root, "state", "retention.json");
  expect((await start("first")).code).toBe(0);
  // The first SessionStart only starts the clock: nothing is pruned yet.
  expect(Object.keys(JSON.parse(readFileSync(marker, "utf8")))).toEqual(["version", "since"]);
  await Bun.sleep(500);
  expect(states().length).toBe(62);
  // A day and an hour later (the marker says so), the next SessionStart starts it.
  const dayAgo = (Date.now() - 25 * 3_600_000) / 1000;
  utimesSync(marker, dayAgo, dayAgo);
  expect((await start("second")).code).toBe(0);
  const done = async () => {
    for (let i = 0; i < 200 && !JSON.parse(readFileSync(marker, "utf8")).finished_at; i++) await Bun.sleep(50);
    return JSON.parse(readFileSync(marker, "utf8"));
  };
  const first = await done();
  expect(first.removed.sessions).toBe(30);
  expect(states().length).toBe(33); // the 30 young ones, live-old, and the two new sessions "first" and "second"
  // Within the interval, further SessionStarts start nothing: the marker stays as the prune left it.
  for (const id of ["third", "fourth", "fifth"]) expect((await start(id)).code).toBe(0);
  await Bun.sleep(500);
  expect(JSON.parse(readFileSync(marker, "utf8"))).toEqual(first);
  expect(existsSync(join(world.root, "state", "retention.claim"))).toBe(false);
});

test("ctx status reads only the entries it may show: old ones come from the digest, unread while unchanged", async () => {
  const status = () => runCtx(["status", "--json"], { env: sb.env, cwd: sb.project });
  const first = JSON.parse((await status()).stdout);
  // Sessions 0 and 1 are 12 and 36 hours old, not ended: stale; the 58 others and live-old ended long ago.
  expect([first.sessions.length, first.hidden_stale, first.hidden_ended]).toEqual([0, 3, 58]);
  const digest = JSON.parse(readFileSync(join(sb.env.XDG_STATE_HOME!, "ctx", "index-digest.json"), "utf8"));
  expect(Object.keys(digest.entries).length).toBe(61);
  // Overwrite an old entry with garbage of the same size and time: unchanged to lstat, so never read.
  const entry = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions", `${sid(40)}.json`);
  const size = readFileSync(entry).length;
  writeFileSync(entry, "x".repeat(size));
  utimesSync(entry, world.timeOf(40) / 1000, world.timeOf(40) / 1000);
  expect(JSON.parse((await status()).stdout).hidden_ended).toBe(58);
  // Once its time changes it is read again: a broken entry is skipped, as before.
  utimesSync(entry, world.timeOf(40) / 1000 + 1, world.timeOf(40) / 1000 + 1);
  expect(JSON.parse((await status()).stdout).hidden_ended).toBe(57);
  // --all reads every entry.
  const all = JSON.parse((await runCtx(["status", "--json", "--all"], { env: sb.env, cwd: sb.project })).stdout);
  expect(all.sessions.length).toBe(60);
});

test("through a symlinked directory nothing is removed; in the real ones only regular files of ours", async () => {
  const elsewhere = join(sb.t.dir, "elsewhere");
  mkdirSync(elsewhere);
  const old = (nowMs - 400 * DAY) / 1000;
  for (const name of [
    `summary-chain-x-${stampAt(nowMs - 400 * DAY)}.md`,
    "session-20200101-000000.json",
    ".a.1.b.tmp",
  ]) {
    writeFileSync(join(elsewhere, name), "precious");
    utimesSync(join(elsewhere, name), old, old);
  }
  // The records folder is a link (a cloned repository can commit one); an aged-out state file is a link too.
  renameSync(join(world.root, "sessions"), join(sb.t.dir, "records-moved"));
  symlinkSync(elsewhere, join(world.root, "sessions"));
  symlinkSync(join(elsewhere, "session-20200101-000000.json"), join(world.root, "state", "sessions", "linked.json"));
  lutimesSync(join(world.root, "state", "sessions", "linked.json"), old, old);
  const r = await runCtx(["prune"], { env: sb.env, cwd: sb.project });
  expect(r.stdout).toContain("30 session states, 0 summaries, 0 session record files,");
  expect(ls(elsewhere)).toEqual([
    ".a.1.b.tmp",
    "session-20200101-000000.json",
    `summary-chain-x-${stampAt(nowMs - 400 * DAY)}.md`,
  ]);
  expect(states()).toContain("linked.json");
});
