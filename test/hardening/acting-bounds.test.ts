/**
 * Issue 32, item 7: an untrusted project config acted through keys that need no trust. The old code
 * took `respawn: {restart_at: 15, compact_at: off}` (the supervisor typed /clear at 20 %),
 * `retention: {max_age_days: 0, interval_h: 0}` (a prune on every SessionStart, and `pruneUser`
 * applied the project's limits to the whole per-user state, removing other projects' index entries
 * and bridge files), `respawn.poll_ms: 0` and `respawn.limit_margin_s: 1e9`. Now every file's value of
 * a key that makes ctx act is kept in its range, an untrusted project file can only make ctx more
 * careful, the per-user prune uses the user's own limits, and `ctx config` shows each clamp and why.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settingsFromConfig } from "../../src/core/respawn/settings.ts";
import { loadConfig } from "../../src/io/config.ts";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const DAY = 86_400_000;
let sb: ProjectSandbox;
const projectFile = (text: string) => {
  mkdirSync(join(sb.project, ".ctx"), { recursive: true });
  writeFileSync(join(sb.project, ".ctx", "config.yaml"), text);
};
const userFile = (text: string) => {
  mkdirSync(join(sb.env.XDG_CONFIG_HOME!, "ctx"), { recursive: true });
  writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "ctx", "config.yaml"), text);
};
const config = () => loadConfig({ env: sb.env, stderr: () => {} }, sb.project);
beforeEach(() => {
  sb = projectSandbox();
});
afterEach(() => sb.t.cleanup());

const HOSTILE = `respawn:
  restart_at: 15
  compact_at: off
  poll_ms: 0
  limit_margin_s: 1e9
  cooldown_s: 0
  max_cycles_per_hour: 1000
retention:
  max_age_days: 0
  interval_h: 0
  keep_per_chain: 0
`;

test("an untrusted project file cannot make the supervisor act sooner or more often, nor prune more", () => {
  projectFile(HOSTILE);
  const cfg = config();
  const s = settingsFromConfig(cfg);
  expect(s.restartAt).toBe(90); // the default stays: 15 would act sooner
  expect(s.compactAt).toBe(false); // off never acts: more careful, so it applies
  expect(cfg["respawn.poll_ms"]).toBe(1000);
  expect(s.cooldownMs).toBe(60_000);
  expect(s.maxCyclesPerHour).toBe(6);
  // Waiting longer is more careful, but never past its range.
  expect(s.limitMarginMs).toBe(3_600_000);
  expect([cfg["retention.max_age_days"], cfg["retention.interval_h"], cfg["retention.keep_per_chain"]]).toEqual([
    30, 24, 5,
  ]);
});

test("the same keys from any file stay within their ranges; a careful project file applies", () => {
  userFile(
    "respawn:\n  restart_at: 15\n  compact_at: 20\n  poll_ms: 0\n  cooldown_s: 0\nretention:\n  max_age_days: 0\n  interval_h: 0\n",
  );
  const cfg = config();
  expect([cfg["respawn.restart_at"], cfg["respawn.compact_at"]]).toEqual([75, 75]); // levels.critical
  expect([cfg["respawn.poll_ms"], cfg["respawn.cooldown_s"]]).toEqual([250, 10]);
  expect([cfg["retention.max_age_days"], cfg["retention.interval_h"]]).toEqual([1, 1]);
  projectFile("respawn:\n  restart_at: 95\n  cooldown_s: 600\n");
  expect([config()["respawn.restart_at"], config()["respawn.cooldown_s"]]).toEqual([95, 600]);
});

test("ctx config shows every clamped value and why, and every key the project file may not lower", async () => {
  userFile("respawn:\n  restart_at: 15\n  poll_ms: 0\n");
  projectFile("respawn:\n  limit_margin_s: 1e9\n  max_cycles_per_hour: 1000\n");
  const r = await runCtx(["config"], { env: sb.env, cwd: sb.project });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("respawn.restart_at=75  (clamped from 15: not below levels.critical (75))");
  expect(r.stdout).toContain("respawn.poll_ms=250  (clamped from 0: not below 250)");
  expect(r.stdout).toContain("respawn.limit_margin_s=3600  (clamped from 1000000000: not above 3600)");
  expect(r.stdout).toMatch(
    /respawn\.max_cycles_per_hour=6 {2}\(ignored: .*may only make respawn\.max_cycles_per_hour more careful\)/,
  );
  const json = JSON.parse((await runCtx(["config", "--json"], { env: sb.env, cwd: sb.project })).stdout);
  expect(json.values["respawn.restart_at"]).toMatchObject({ value: 75, clamped_from: 15 });
  expect(json.clamped.map((c: any) => c.key).sort()).toEqual([
    "respawn.limit_margin_s",
    "respawn.poll_ms",
    "respawn.restart_at",
  ]);
});

test("ctx prune in a project whose file says max_age_days 0 leaves other projects' per-user state alone", async () => {
  projectFile("retention:\n  max_age_days: 0\n  keep_per_chain: 0\n");
  const index = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions");
  mkdirSync(index, { recursive: true });
  const twoDaysAgo = (Date.now() - 2 * DAY) / 1000;
  const other = join(index, "other-session.json");
  // another project whose state is still there (an entry whose root is gone is dead, and goes at any age)
  const otherRoot = join(sb.project, "..", "other-project", ".ctx");
  mkdirSync(otherRoot, { recursive: true });
  writeFileSync(other, JSON.stringify({ version: 1, session_id: "other-session", root: otherRoot }));
  utimesSync(other, twoDaysAgo, twoDaysAgo);
  const bridge = join(sb.env.TMPDIR!, "claude-ctx-other-session.json");
  writeFileSync(bridge, "{}");
  utimesSync(bridge, twoDaysAgo, twoDaysAgo);
  const r = await runCtx(["prune"], { env: sb.env, cwd: sb.project });
  expect(r.code).toBe(0);
  expect(existsSync(other)).toBe(true);
  expect(existsSync(bridge)).toBe(true);
  // The user's own limit (here 1 day) does apply across projects.
  userFile("retention:\n  max_age_days: 1\n");
  expect((await runCtx(["prune"], { env: sb.env, cwd: sb.project })).code).toBe(0);
  expect(existsSync(other)).toBe(false);
  expect(existsSync(bridge)).toBe(false);
});

test("ctx doctor names each clamped value, where it is set and what is used", async () => {
  userFile("respawn:\n  restart_at: 15\n");
  const r = await runCtx(["doctor"], { env: { ...sb.env, NO_COLOR: "1" }, cwd: sb.project });
  expect(r.stdout).toMatch(
    /warn {2}config range: \S+config\.yaml:2:3: respawn\.restart_at: 15 is used as 75 \(not below levels\.critical \(75\)\)/,
  );
});
