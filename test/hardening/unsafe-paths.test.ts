/**
 * Paths that cannot be used as given fail safely:
 * - with `HOME` unset (and no XDG_STATE_HOME) there is no per-user directory: hooks keep the
 *   project's state but write no index (never `/.local/state/ctx`), typed commands that need it
 *   say why (never `/.claude/settings.json`);
 * - a project path that is not valid UTF-8 would be decoded with U+FFFD into a sibling
 *   directory's name: nothing is written there, hooks do their job without state (as with a
 *   read-only directory), typed commands say why;
 * - a symlinked `.ctx` (or a level under it) in a real git repository: SessionStart writes
 *   neither `.gitignore` nor `state/git-start/` through it.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" })));
afterEach(() => sb.cleanup());

/** A hook payload; without `cwd` the project is the process's (CLAUDE_PROJECT_DIR or its working directory). */
const hook = (sid: string, event: string, cwd: string | undefined, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: sid,
    cwd,
    hook_event_name: event,
    transcript_path: sb.transcript,
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "" },
    tool_use_id: "toolu_0123456789",
    ...extra,
  });

describe("HOME unset", () => {
  // What an unset HOME used to reach (we may run as root): removed again only when this test made it.
  const AT_ROOT = ["/.local", "/.claude"];
  let before: boolean[];
  beforeEach(() => (before = AT_ROOT.map((p) => existsSync(p))));
  afterEach(() =>
    AT_ROOT.forEach((p, i) => {
      if (!before[i]) rmSync(p, { recursive: true, force: true });
    }),
  );

  test("hooks keep the project's state and write no index; ctx status and ctx install say why", async () => {
    const sid = `nohome-${process.pid}`;
    const env = { ...sb.env };
    for (const k of ["HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"]) delete env[k];
    const status = JSON.stringify({
      session_id: sid,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet" },
      context_window: { context_window_size: 200_000, used_percentage: 72, remaining_percentage: 28 },
      workspace: { current_dir: sb.project },
    });
    const runs = [
      await runCtx(["track"], { stdin: hook(sid, "SessionStart", sb.project, { source: "startup" }), env }),
      await runCtx(["statusline"], { stdin: status, env }),
      await runCtx(["track"], { stdin: hook(sid, "PostToolUse", sb.project), env }),
      await runCtx(["monitor"], { stdin: hook(sid, "PostToolUse", sb.project), env }),
    ];
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, ""]));
    expect(runs[3]!.stdout).toContain("CONTEXT WARNING"); // the hooks still do their job
    const state = JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", `${sid}.json`), "utf8"));
    expect(state.tool_calls).toBe(1);
    expect(existsSync(`/.local/state/ctx/sessions/${sid}.json`)).toBe(false);
    expect(existsSync("/.local/state/ctx/windows.json") && !before[0]).toBe(false);
    const st = await runCtx(["status"], { env, cwd: sb.project });
    expect({ code: st.code, stdout: st.stdout }).toEqual({ code: 1, stdout: "" });
    expect(st.stderr).toContain("HOME is not set");
    const inst = await runCtx(["install"], { env, cwd: sb.project });
    expect(inst.code).toBe(1);
    expect(inst.stderr).toContain("HOME is not set");
    expect(existsSync("/.claude/settings.json") && !before[1]).toBe(false);
  });
});

describe("a project path that is not valid UTF-8", () => {
  /** `<sandbox>/proj\xff`, made from its bytes, and the shell text that names it. */
  const BAD = () => Buffer.concat([Buffer.from(`${sb.dir}/proj`), Buffer.from([0xff])]);
  const shellPath = () => `"${sb.dir}/proj"$(printf '\\377')`;

  /** Runs ctx with the project given as bytes (CLAUDE_PROJECT_DIR or the working directory). */
  async function runBytes(args: string, stdin: string, how: "env" | "cwd") {
    const script =
      how === "env"
        ? `CLAUDE_PROJECT_DIR=${shellPath()} exec "${CTX_BIN}" ${args}`
        : `cd ${shellPath()} && exec "${CTX_BIN}" ${args}`;
    const env = { ...sb.env };
    delete env.CLAUDE_PROJECT_DIR;
    const p = Bun.spawn(["sh", "-c", script], { stdin: new Blob([stdin]), stdout: "pipe", stderr: "pipe", env });
    const [stdout, stderr, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    return { code, stdout, stderr };
  }

  /** Names in the sandbox holding U+FFFD's bytes: a directory ctx made from a decoded name. */
  const mangled = () =>
    readdirSync(Buffer.from(sb.dir), { encoding: "buffer" }).filter((n) => n.includes(Buffer.from("\uFFFD")));

  test.each([
    "env",
    "cwd",
  ] as const)("given by %s: hooks warn without state and write nothing, a typed command says why", async (how) => {
    mkdirSync(BAD());
    const sid = `bad-${how}`;
    const runs = [
      await runBytes("track", hook(sid, "SessionStart", undefined, { source: "startup" }), how),
      await runBytes("track", hook(sid, "PostToolUse", undefined), how),
      await runBytes("monitor", hook(sid, "PostToolUse", undefined), how),
      await runBytes("resume --hook", hook(sid, "SessionStart", undefined, { source: "clear" }), how),
    ];
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, ""]));
    expect(runs[2]!.stdout).toContain("CONTEXT CRITICAL"); // the transcript is at 93 %: the monitor still warns
    expect(mangled()).toEqual([]);
    expect(readdirSync(BAD())).toEqual([]);
    const fin = await runBytes(`finalize --session ${sid} --transcript ${sb.transcript}`, "", how);
    expect(fin.code).toBe(1);
    expect(fin.stderr).toContain("the project directory is not valid UTF-8");
    expect(mangled()).toEqual([]);
  });
});

describe("a symlinked .ctx in a git repository", () => {
  test.each([
    ".ctx",
    ".ctx/state",
    ".ctx/state/git-start",
  ])("%s -> elsewhere: SessionStart writes neither .gitignore nor git-start through it", async (at) => {
    Bun.spawnSync(["git", "init", "-q", sb.project]);
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(sb.project, at, ".."), { recursive: true });
    symlinkSync(elsewhere, join(sb.project, at));
    const sid = "s-linked";
    for (const event of ["SessionStart", "PostToolUse"]) {
      const r = await runCtx(["track"], {
        stdin: hook(sid, event, sb.project, { source: "startup" }),
        env: sb.env,
        cwd: sb.project,
      });
      expect({ event, code: r.code, stderr: r.stderr }).toEqual({ event, code: 0, stderr: "" });
    }
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
