/**
 * Hostile files: a bridge path that is a symlink, a bridge owned by another
 * user (a second user created for the test), session ids built to escape, and
 * corrupt state and config files.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { FUZZ_TARGETS } from "./fuzz-contract.ts";
import { runInproc } from "./inproc.ts";
import { makeSandbox, snapshot, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" })));
afterEach(() => sb.cleanup());

const bridgeJson = (sid: string, used: number) =>
  JSON.stringify({
    session_id: sid,
    used_pct: used,
    remaining_percentage: 100 - used,
    timestamp: Date.now() / 1000,
    used_tokens: used * 2000,
    context_window_size: 200000,
  });
const statusPayload = (sid: string) =>
  JSON.stringify({
    session_id: sid,
    cwd: sb.project,
    model: { id: "claude-sonnet-4-5", display_name: "Sonnet" },
    workspace: { current_dir: sb.project, project_dir: sb.project },
    context_window: {
      context_window_size: 200000,
      current_usage: { input_tokens: 100000 },
      used_percentage: 50,
      remaining_percentage: 50,
    },
  });
/** A PostToolUse without a transcript: the bridge is the only possible source of a warning. */
const toolHook = (sid: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: sid,
    cwd: sb.project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "" },
    ...extra,
  });
const bridgeAt = (sid: string) => join(sb.env.TMPDIR!, `claude-ctx-${sid}.json`);

describe("bridge file", () => {
  test("a bridge path that is a symlink to another file: statusline replaces the link, the file stays untouched", async () => {
    const victim = join(sb.dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, bridgeAt("sym"));
    const r = await runCtx(["statusline"], { stdin: statusPayload("sym"), env: sb.env });
    expect(r.code).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(lstatSync(bridgeAt("sym")).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(bridgeAt("sym"), "utf8")).used_pct).toBe(50);
  });

  test("a bridge path that is a symlink is never read: the monitor ignores it (the same file in place warns)", async () => {
    const real = join(sb.dir, "fake-bridge.json");
    writeFileSync(real, bridgeJson("sym", 90));
    symlinkSync(real, bridgeAt("sym"));
    expect((await runCtx(["monitor"], { stdin: toolHook("sym"), env: sb.env })).stdout).toBe("");
    writeFileSync(bridgeAt("ctl"), bridgeJson("ctl", 90));
    expect((await runCtx(["monitor"], { stdin: toolHook("ctl"), env: sb.env })).stdout).toContain("CONTEXT CRITICAL");
  });
});

// Creating a user needs root (CI and the dev machines run as root); elsewhere say so and skip.
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn("hostile-files: not root, skipping the second-user tests (useradd needs root)");

describe.skipIf(!isRoot)("a second user", () => {
  const user = `ctxh${process.pid % 100000}`;
  let uid = -1;
  let gid = -1;
  beforeAll(() => {
    const add = Bun.spawnSync(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user], {
      stderr: "pipe",
    });
    if (add.exitCode !== 0) throw new Error(`useradd failed (the test needs root): ${add.stderr.toString()}`);
    uid = Number(Bun.spawnSync(["id", "-u", user]).stdout.toString());
    gid = Number(Bun.spawnSync(["id", "-g", user]).stdout.toString());
  });
  afterAll(() => void Bun.spawnSync(["userdel", user]));

  test("a bridge file owned by another user is ignored by the monitor (owned by us, it warns)", async () => {
    writeFileSync(bridgeAt("foreign"), bridgeJson("foreign", 90));
    chownSync(bridgeAt("foreign"), uid, gid);
    expect((await runCtx(["monitor"], { stdin: toolHook("foreign"), env: sb.env })).stdout).toBe("");
    chownSync(bridgeAt("foreign"), 0, 0);
    expect((await runCtx(["monitor"], { stdin: toolHook("foreign"), env: sb.env })).stdout).toContain(
      "CONTEXT CRITICAL",
    );
  });

  test("running as the second user, a bridge planted by root in a shared tmp dir is ignored", async () => {
    const shared = mkdtempSync("/tmp/ctx-hard-user-");
    try {
      chmodSync(shared, 0o755);
      const tmp = join(shared, "tmp");
      const home = join(shared, "home");
      mkdirSync(tmp, { mode: 0o1777 });
      chmodSync(tmp, 0o1777);
      mkdirSync(join(home, "proj"), { recursive: true });
      Bun.spawnSync(["chown", "-R", `${uid}:${gid}`, home]);
      writeFileSync(join(tmp, "claude-ctx-planted.json"), bridgeJson("planted", 90), { mode: 0o644 });
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        TMPDIR: tmp,
        CLAUDE_PROJECT_DIR: join(home, "proj"),
      };
      const as = (stdin: string) =>
        Bun.spawnSync(["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", CTX_BIN, "monitor"], {
          stdin: Buffer.from(stdin),
          env,
          cwd: home,
        });
      const r = as(toolHook("planted", { cwd: join(home, "proj") }));
      expect({ code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }).toEqual({
        code: 0,
        stdout: "",
        stderr: "",
      });
      chownSync(join(tmp, "claude-ctx-planted.json"), uid, gid); // the control: the user's own bridge is read
      expect(as(toolHook("planted", { cwd: join(home, "proj") })).stdout.toString()).toContain("CONTEXT CRITICAL");
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

describe("session ids built to escape", () => {
  const BAD_IDS = [
    "../x",
    "../../../../tmp/pwned",
    "a/b",
    "/abs",
    "",
    ".",
    "..",
    "x".repeat(129),
    "a b",
    "a\u0000b",
    "sid\n",
    "ü",
    "%2e%2e",
    "*",
    "~",
  ];

  test(`${BAD_IDS.length} hostile ids through every stdin command and track's plain mode touch no file`, async () => {
    writeFileSync(bridgeAt("ok"), bridgeJson("ok", 90));
    const before = snapshot(sb.dir);
    const tmpBefore = readdirSync("/tmp").filter((n) => n.includes("pwned")).length;
    for (const id of [...BAD_IDS, 42, null, ["a"], { id: "x" }]) {
      for (const t of FUZZ_TARGETS) {
        const stdin = Buffer.from(
          t.name === "statusline"
            ? statusPayload("x").replace('"x"', JSON.stringify(id))
            : toolHook("x", {
                session_id: id,
                hook_event_name: t.name === "resume --hook" ? "SessionStart" : "PostToolUse",
                transcript_path: sb.transcript,
              }),
        );
        const r = await runInproc(t.argv, { env: sb.env, cwd: sb.project, stdin });
        expect({ id, cmd: t.name, code: r.code, stderr: r.stderr, contract: t.check(r.stdout) }).toEqual({
          id,
          cmd: t.name,
          code: 0,
          stderr: "",
          contract: undefined,
        });
      }
      if (typeof id === "string") {
        const r = await runInproc(["track", "--session", id, "--usage", '{"input_tokens":5}'], {
          env: sb.env,
          cwd: sb.project,
          stdin: new Uint8Array(),
        });
        // the scripted mode is no hook: a bad id is a usage error (exit 2), and touches nothing
        expect(r.code).toBe(2);
      }
    }
    const r = await runCtx(["track", "--session", "../../x", "--usage", '{"input_tokens":5}'], {
      env: sb.env,
      cwd: sb.project,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("ctx track: --session needs a session id");
    expect(snapshot(sb.dir)).toEqual(before);
    expect(readdirSync("/tmp").filter((n) => n.includes("pwned")).length).toBe(tmpBefore);
  });
});
