import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  clientChoice,
  gatherChoice,
  readRemembered,
  rememberCompaction,
  rememberWindow,
  sessionEvidence,
} from "../../../src/io/session/window-source.ts";
import { userLayout } from "../../../src/core/layout.ts";
import { isolatedEnv, tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let proc: string;
let project: string;
let root: string;
beforeEach(() => {
  t = tempDir();
  env = isolatedEnv(t.dir, { CLAUDECODE: "1" });
  proc = join(t.dir, "proc");
  project = join(t.dir, "proj");
  root = join(project, ".ctx");
  mkdirSync(join(env.HOME!, ".claude"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
});
afterEach(() => t.cleanup());

/** A process in the fake /proc: its stat (comm, parent), argv and environment. */
function fakeProc(pid: number, comm: string, ppid: number, argv: string[], environ: Record<string, string> = {}) {
  const dir = join(proc, String(pid));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "stat"), `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 0`);
  writeFileSync(join(dir, "cmdline"), `${argv.join("\0")}\0`);
  writeFileSync(
    join(dir, "environ"),
    Object.entries(environ)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(""),
  );
}

/** ctx (300) run by sh (200) run by Claude Code (`claudePid`). */
function hookChain(claudePid: number, argv: string[], environ: Record<string, string> = {}) {
  fakeProc(claudePid, "claude", 1, argv, environ);
  fakeProc(200, "sh", claudePid, ["/bin/sh", "-c", "ctx monitor"]);
  fakeProc(300, "ctx", 200, ["ctx", "monitor"]);
}

describe("gatherChoice", () => {
  test("reads --model from the client's argv, before its env and the settings", () => {
    hookChain(100, ["claude", "-p", "hi", "--model", "opus[1m]"], { ANTHROPIC_MODEL: "claude-sonnet-4-5" });
    writeFileSync(join(env.HOME!, ".claude", "settings.json"), JSON.stringify({ model: "haiku" }));
    expect(gatherChoice(env, project, 100, proc)).toEqual({ found: true, model: "opus[1m]", source: "client_args" });
  });

  test("ANTHROPIC_MODEL from the client's own environment, not ours", () => {
    hookChain(100, ["claude", "-p", "hi"], { ANTHROPIC_MODEL: "sonnet[1m]", HOME: env.HOME! });
    const ours = { ...env, ANTHROPIC_MODEL: "claude-sonnet-4-5" };
    expect(gatherChoice(ours, project, 100, proc)).toEqual({ found: true, model: "sonnet[1m]", source: "client_env" });
  });

  test("settings: local over project over user; nothing chosen gives null", () => {
    hookChain(100, ["claude"], { HOME: env.HOME! });
    expect(gatherChoice(env, project, 100, proc)).toEqual({ found: true, model: null, source: null });
    writeFileSync(join(env.HOME!, ".claude", "settings.json"), JSON.stringify({ model: "opus[1m]" }));
    expect(gatherChoice(env, project, 100, proc).model).toBe("opus[1m]");
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ model: "claude-sonnet-4-5" }));
    expect(gatherChoice(env, project, 100, proc).model).toBe("claude-sonnet-4-5");
    writeFileSync(join(project, ".claude", "settings.local.json"), JSON.stringify({ model: "sonnet[1m]" }));
    expect(gatherChoice(env, project, 100, proc)).toEqual({ found: true, model: "sonnet[1m]", source: "settings" });
  });

  test("a settings file's env block counts as the client's environment", () => {
    hookChain(100, ["claude", "-p", "hi"], { HOME: env.HOME!, ANTHROPIC_MODEL: "from-process" });
    const settings = { env: { ANTHROPIC_MODEL: "claude-sonnet-4-5", OTHER: "x" }, model: "opus[1m]" };
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify(settings));
    expect(gatherChoice(env, project, 100, proc)).toEqual({
      found: true,
      model: "claude-sonnet-4-5",
      source: "client_env",
    });
  });

  test("a broken settings file or a gone process is no evidence", () => {
    hookChain(100, ["claude"]);
    writeFileSync(join(env.HOME!, ".claude", "settings.json"), "{ not json");
    expect(gatherChoice(env, project, 100, proc)).toEqual({ found: true, model: null, source: null });
    expect(gatherChoice(env, project, 999, proc)).toEqual({ found: false, model: null, source: null });
  });
});

describe("clientChoice: cached per session and client process", () => {
  test("read once; the next hook of the same process gets the cache, a new process reads again", () => {
    hookChain(100, ["claude", "--model", "opus[1m]"]);
    expect(clientChoice(env, root, project, "s1", proc, 300).model).toBe("opus[1m]");
    const cache = join(root, "state", "window", "s1.json");
    expect(JSON.parse(readFileSync(cache, "utf8"))).toMatchObject({ claude_pid: 100 });
    // Same process, argv changed under us: the cache answers (no /proc read of the argv).
    fakeProc(100, "claude", 1, ["claude", "--model", "claude-sonnet-4-5"]);
    expect(clientChoice(env, root, project, "s1", proc, 300).model).toBe("opus[1m]");
    // `--resume` in a new client process: read again.
    hookChain(101, ["claude", "--resume", "s1", "--model", "claude-sonnet-4-5"]);
    expect(clientChoice(env, root, project, "s1", proc, 300)).toEqual({
      found: true,
      model: "claude-sonnet-4-5",
      source: "client_args",
    });
  });

  test("outside Claude Code (finalize, status, respawn) the hooks' cache answers, else nothing is known", () => {
    fakeProc(300, "ctx", 1, ["ctx", "finalize"]);
    expect(clientChoice(env, root, project, "s2", proc, 300)).toEqual({ found: false, model: null, source: null });
    hookChain(100, ["claude", "--model", "opus[1m]"]);
    clientChoice(env, root, project, "s2", proc, 300);
    fakeProc(400, "ctx", 1, ["ctx", "respawn"]);
    expect(clientChoice(env, root, project, "s2", proc, 400).model).toBe("opus[1m]");
  });

  test("the cache keeps that a [1m] was the default's (ANTHROPIC_DEFAULT_OPUS_MODEL), not asked for", () => {
    hookChain(100, ["claude"], { ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-opus-4-6" });
    const implicit = { found: true, model: "claude-opus-4-6[1m]", source: "client_env" as const, implicit: true };
    expect(clientChoice(env, root, project, "s4", proc, 300)).toEqual(implicit);
    fakeProc(400, "ctx", 1, ["ctx", "finalize"]);
    expect(clientChoice(env, root, project, "s4", proc, 400)).toEqual(implicit);
  });

  test("an automatic compaction track remembered comes with the choice, and survives a new client process", () => {
    // 167,094: where the real 2.1.39 session of github.com/marot/spotter (MIT, 8cc42b0) compacted by itself.
    const c = { preTokens: 167_094, model: "claude-opus-4-6" };
    rememberCompaction(root, "s5", c);
    fakeProc(400, "ctx", 1, ["ctx", "finalize"]);
    expect(sessionEvidence(env, root, project, "s5", proc, 400)).toEqual({
      client: { found: false, model: null, source: null },
      autoCompaction: c,
    });
    hookChain(100, ["claude"]);
    expect(sessionEvidence(env, root, project, "s5", proc, 300)).toEqual({
      client: { found: true, model: null, source: null },
      autoCompaction: c,
    });
    hookChain(101, ["claude", "--resume", "s5"]);
    expect(sessionEvidence(env, root, project, "s5", proc, 300).autoCompaction).toEqual(c);
    const cache = JSON.parse(readFileSync(join(root, "state", "window", "s5.json"), "utf8"));
    expect(cache).toMatchObject({
      claude_pid: 101,
      auto_compaction: { pre_tokens: 167_094, model: "claude-opus-4-6" },
    });
    // A newer compaction replaces it; junk in the file is no evidence.
    rememberCompaction(root, "s5", { preTokens: 170_000 });
    expect(sessionEvidence(env, root, project, "s5", proc, 300).autoCompaction).toEqual({ preTokens: 170_000 });
    writeFileSync(
      join(root, "state", "window", "s5.json"),
      JSON.stringify({ ...cache, auto_compaction: { pre_tokens: -5 } }),
    );
    expect(sessionEvidence(env, root, project, "s5", proc, 300).autoCompaction).toBeUndefined();
  });

  test("a process whose environment does not say Claude Code runs it never looks for the client", () => {
    hookChain(100, ["claude", "--model", "opus[1m]"]);
    const { CLAUDECODE: _, ...plain } = env;
    expect(clientChoice(plain, root, project, "s3", proc, 300)).toEqual({ found: false, model: null, source: null });
    expect(clientChoice({ ...plain, CLAUDE_CODE_SESSION_ID: "s3" }, root, project, "s3", proc, 300).model).toBe(
      "opus[1m]",
    );
  });
});

describe("remembered windows", () => {
  test("written when new or changed, and only then", () => {
    expect(readRemembered(env)).toEqual({});
    expect(rememberWindow(env, "claude-sonnet-4-5", 200_000)).toBe(true);
    const first = statSync(userLayout(env).windows).mtimeMs;
    expect(rememberWindow(env, "claude-sonnet-4-5", 200_000)).toBe(false);
    expect(statSync(userLayout(env).windows).mtimeMs).toBe(first);
    expect(rememberWindow(env, "claude-opus-4-8[1m]", 1_000_000)).toBe(true);
    expect(rememberWindow(env, "claude-sonnet-4-5", 1_000_000)).toBe(true);
    expect(readRemembered(env)).toEqual({ "claude-sonnet-4-5": 1_000_000, "claude-opus-4-8[1m]": 1_000_000 });
    expect((statSync(userLayout(env).windows).mode & 0o777).toString(8)).toBe("600");
  });

  test("a broken file is no memory; junk values are ignored", () => {
    mkdirSync(join(env.XDG_STATE_HOME!, "ctx"), { recursive: true });
    writeFileSync(userLayout(env).windows, "[1,2");
    expect(readRemembered(env)).toEqual({});
    writeFileSync(userLayout(env).windows, JSON.stringify({ a: "x", b: -1, c: 200_000 }));
    expect(readRemembered(env)).toEqual({ c: 200_000 });
  });
});

test("at most 256 model ids are remembered, the least recently changed go first", () => {
  for (let i = 0; i < 260; i++) rememberWindow(env, `m-${i}`, 200_000);
  rememberWindow(env, "m-5", 1_000_000);
  const all = readRemembered(env);
  expect(Object.keys(all)).toHaveLength(256);
  expect(all["m-0"]).toBeUndefined();
  expect(all["m-5"]).toBe(1_000_000);
  expect(all["m-259"]).toBe(200_000);
});
