/**
 * Issue 21, class 3 (discovery): outside a git repository `ctx resume --latest` and `ctx doctor`
 * walked up into another user's world-writable `/tmp/.ctx`, and a world-writable `.ctx` owned by
 * someone else was used as is (the pattern of git's CVE-2022-24765). Before the fix the walk took
 * the first `.ctx/` above the working directory whoever owned it, and its config and summaries
 * applied. Now discovery never enters a directory that is not the user's (owned by them, and
 * world-writable only with the sticky bit), and such a `.ctx` is neither read nor written.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { foreignReason } from "../../src/io/fs/owner.ts";
import { fileStamp } from "../../src/core/track/stamp.ts";
import { runCtx } from "../helpers/ctx.ts";
import { writeOwnSummary } from "../helpers/written.ts";
import { isolatedEnv } from "../helpers/tmp.ts";

test("the rule: the user's own directory, world-writable only with the sticky bit", () => {
  expect(foreignReason({ uid: 1000, perm: 0o755 }, 1000)).toBeUndefined();
  expect(foreignReason({ uid: 1000, perm: 0o1777 }, 1000)).toBeUndefined();
  expect(foreignReason({ uid: 1000, perm: 0o777 }, 1000)).toBe("writable by everyone");
  expect(foreignReason({ uid: 0, perm: 0o1777 }, 1000)).toBe("owned by another user (uid 0)");
  expect(foreignReason({ uid: 1001, perm: 0o700 }, 1000)).toBe("owned by another user (uid 1001)");
});

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn("foreign-dirs: not root, skipping the second-user tests (useradd needs root)");

describe.skipIf(!isRoot)("another user's .ctx", () => {
  const user = `ctxf${process.pid % 100000}`;
  let uid = -1;
  let gid = -1;
  let shared: string; // a /tmp of its own: root's, world-writable, sticky
  let env: Record<string, string>;
  beforeAll(() => {
    const add = Bun.spawnSync(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user], {
      stderr: "pipe",
    });
    if (add.exitCode !== 0) throw new Error(`useradd failed: ${add.stderr.toString()}`);
    uid = Number(Bun.spawnSync(["id", "-u", user]).stdout.toString());
    gid = Number(Bun.spawnSync(["id", "-g", user]).stdout.toString());
  });
  afterAll(() => void Bun.spawnSync(["userdel", user]));
  beforeEach(() => {
    shared = mkdtempSync("/tmp/ctx-foreign-");
    chmodSync(shared, 0o1777);
    env = { ...isolatedEnv(join(shared, "me"), {}), NO_COLOR: "1", CTX_RESUME_FINALIZE_WAIT_MS: "0" };
    mkdirSync(env.TMPDIR!, { recursive: true });
    mkdirSync(join(shared, "work", "deep"), { recursive: true }); // no git anywhere
  });
  afterEach(() => rmSync(shared, { recursive: true, force: true }));

  /** The other user's world-writable `.ctx` in `dir`: a config and a summary (recorded for us: only discovery stops it). */
  function plantForeign(dir: string): string {
    const root = join(dir, ".ctx");
    mkdirSync(join(root, "sessions"), { recursive: true });
    writeFileSync(join(root, "config.yaml"), "levels:\n  warning: 5\n");
    writeOwnSummary(env, join(root, "sessions", `summary-t-${fileStamp(Date.now())}.md`), "# Summary\n- PLANTED\n");
    Bun.spawnSync(["chown", "-R", `${uid}:${gid}`, root]);
    Bun.spawnSync(["chmod", "-R", "a+rwX", root]);
    return root;
  }
  const ctx = (args: string[], cwd: string) => runCtx(args, { env, cwd });

  test("outside a git repository the walk does not take the shared /tmp's .ctx", async () => {
    plantForeign(shared);
    const cwd = join(shared, "work", "deep");
    const latest = await ctx(["resume", "--print", "--latest"], cwd);
    expect(latest.code).toBe(1);
    expect(latest.stdout).not.toContain("PLANTED");
    expect(latest.stderr).toContain(`no summary found in ${join(cwd, ".ctx", "sessions")}`);
    const config = JSON.parse((await ctx(["config", "--json"], cwd)).stdout);
    expect(config.project).toBe(cwd);
    expect(config.values["levels.warning"].value).toBe(65);
    const doctor = await ctx(["doctor"], cwd);
    expect(doctor.stdout).toContain("levels: warning 65%");
    expect(doctor.stdout).not.toContain(join(shared, ".ctx"));
  });

  test("a world-writable .ctx of another user in the directory itself is neither read nor written", async () => {
    const cwd = join(shared, "work");
    const root = plantForeign(cwd);
    const latest = await ctx(["resume", "--print", "--latest"], cwd);
    expect([latest.code, latest.stdout]).toEqual([1, ""]);
    expect((await ctx(["resume", "--print", "--latest"], cwd)).stderr).toContain("no summary found");
    expect(JSON.parse((await ctx(["config", "--json"], cwd)).stdout).values["levels.warning"].value).toBe(65);
    const doctor = await ctx(["doctor"], cwd);
    expect(doctor.stdout).toContain(`warn  state folder: ${root} is owned by another user (uid ${uid})`);
    // the hooks write nothing into it, and still exit 0
    const before = readdirSync(root).sort();
    const hook = JSON.stringify({ session_id: "s1", cwd, hook_event_name: "SessionStart", source: "startup" });
    const track = await runCtx(["track"], { env: { ...env, CLAUDE_PROJECT_DIR: cwd }, cwd, stdin: hook });
    const resume = await runCtx(["resume", "--hook"], { env: { ...env, CLAUDE_PROJECT_DIR: cwd }, cwd, stdin: hook });
    expect([track.code, resume.code, resume.stdout]).toEqual([0, 0, ""]);
    expect(readdirSync(root).sort()).toEqual(before);
    expect(existsSync(join(root, "state"))).toBe(false);
  });

  test("the user's own .ctx: used when private, not when anyone can write into it", async () => {
    const cwd = join(shared, "work");
    const root = join(cwd, ".ctx");
    mkdirSync(join(root, "sessions"), { recursive: true, mode: 0o700 });
    writeOwnSummary(env, join(root, "sessions", `summary-t-${fileStamp(Date.now())}.md`), "# Summary\n- MINE\n");
    const deep = join(cwd, "deep");
    expect((await ctx(["resume", "--print", "--latest"], deep)).stdout).toContain("MINE"); // found from below
    chmodSync(root, 0o777);
    expect((await ctx(["resume", "--print", "--latest"], deep)).code).toBe(1);
    expect((await ctx(["resume", "--print", "--latest"], cwd)).code).toBe(1);
    chownSync(root, 0, 0);
    chmodSync(root, 0o1777); // sticky and ours: fine again
    expect((await ctx(["resume", "--print", "--latest"], deep)).stdout).toContain("MINE");
  });
});
