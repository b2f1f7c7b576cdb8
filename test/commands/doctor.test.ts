import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { doctor } from "../../src/commands/doctor.ts";
import { chainCannotRun } from "../../src/commands/doctor-chain.ts";
import { install } from "../../src/commands/install.ts";
import { userLayout } from "../../src/core/layout.ts";
import { formatErrorLine, readRecentErrors, recordHookError } from "../../src/io/error-log.ts";
import { type Home, makeHome, NOW } from "../install/settings-home.ts";

let h: Home;
afterEach(() => h?.cleanup());

/** A home with a ctx executable in <root>/bin on PATH (next to tmux when the host has it). */
function wiredHome(): { bin: string } {
  h = makeHome();
  const dir = join(h.root, "bin");
  mkdirSync(dir);
  const bin = join(dir, "ctx");
  writeFileSync(bin, "#!/bin/sh\necho ctx 0.0.0\n");
  chmodSync(bin, 0o755);
  const tmux = Bun.which("tmux");
  if (tmux) symlinkSync(tmux, join(dir, "tmux"));
  h.deps.env.PATH = dir;
  return { bin };
}

function lines(): string[] {
  return h.out().split("\n");
}

describe("ctx doctor", () => {
  test("a fully wired setup passes every check", () => {
    const { bin } = wiredHome();
    install([], h.deps, bin);
    if (!Bun.which("tmux")) return; // the tmux check would warn on a host without it
    const code = doctor([], h.deps, bin);
    expect(h.out()).toContain("All good.");
    expect(code).toBe(0);
    expect(lines()).toContain(`ok    binary on PATH: ${bin}`);
    expect(lines()).toContain("ok    hook PostToolUse: ctx monitor: timeout 10 s");
    expect(lines()).toContain("ok    hook errors: none recorded");
  });

  test("a chained status line that cannot run fails, instead of ok (the user would lose theirs silently)", () => {
    const { bin } = wiredHome();
    const script = join(h.home, ".claude", "statusline.sh");
    mkdirSync(join(h.home, ".claude"), { recursive: true });
    writeFileSync(
      join(h.home, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: "~/.claude/statusline.sh" } }),
    );
    writeFileSync(script, "#!/bin/sh\necho mine\n"); // not executable
    install([], h.deps, bin);
    doctor([], h.deps, bin);
    expect(h.out()).toContain(
      `FAIL  statusLine: chained with your own (~/.claude/statusline.sh), which cannot run: ${script} is not executable (chmod +x ${script}); your status line is not shown`,
    );
    chmodSync(script, 0o755);
    const before = h.out().length;
    doctor([], h.deps, bin);
    expect(h.out().slice(before)).toContain(
      "ok    statusLine: ctx statusline, chained with your own (~/.claude/statusline.sh)",
    );
  });

  test("chainCannotRun: a missing program, a missing script of an interpreter; shell syntax is not judged", () => {
    wiredHome();
    const env = { ...h.deps.env, PATH: `${h.deps.env.PATH}:/bin:/usr/bin` };
    expect(chainCannotRun(env, "no-such-prog --x")).toBe("no-such-prog is not on PATH");
    expect(chainCannotRun(env, `sh ${join(h.home, "gone.sh")}`)).toBe(`${join(h.home, "gone.sh")}: no such file`);
    expect(chainCannotRun(env, "sh -c 'echo hi'")).toBeUndefined();
    expect(chainCannotRun(env, "cat | head")).toBeUndefined();
  });

  test("--project counts the user's hooks too, as the client does, found from a subfolder", () => {
    const { bin } = wiredHome();
    mkdirSync(join(h.deps.cwd, ".git"));
    const sub = join(h.deps.cwd, "src", "deep");
    mkdirSync(sub, { recursive: true });
    h.deps.cwd = sub;
    expect(doctor(["--project"], h.deps, bin)).toBe(1);
    expect(lines()).toContain("FAIL  hook SessionStart: ctx resume --hook: missing");
    expect(lines()).toContain("      fix: ctx install --project");
    install([], h.deps, bin); // the user's settings only: the client runs them in this project too
    const before = h.out().length;
    doctor(["--project"], h.deps, bin);
    const after = h.out().slice(before);
    expect(after).toContain("ok    hook SessionStart: ctx resume --hook: timeout 30 s");
    expect(after).not.toContain("FAIL");
  });

  test("the same command in the user's and the project's settings runs once: no alarm; two different ones do", () => {
    const { bin } = wiredHome();
    install([], h.deps, bin);
    const user = readFileSync(join(h.home, ".claude", "settings.json"), "utf8");
    mkdirSync(join(h.deps.cwd, ".claude"), { recursive: true });
    writeFileSync(join(h.deps.cwd, ".claude", "settings.json"), user); // the very same entries
    let before = h.out().length;
    doctor([], h.deps, bin);
    expect(h.out().slice(before)).not.toContain("times");
    const project = JSON.parse(user);
    project.hooks.Stop[0].hooks[0].command = `${bin}  track`; // written otherwise, as the client compares: the same
    project.hooks.PreCompact[0].hooks[0].command = `'${bin}' track`; // another string: it runs twice
    writeFileSync(join(h.deps.cwd, ".claude", "settings.json"), JSON.stringify(project));
    before = h.out().length;
    doctor([], h.deps, bin);
    const out = h.out().slice(before);
    expect(out).not.toContain("warn  hook Stop: ctx track: registered");
    expect(out).toContain("warn  hook PreCompact: ctx track: registered as 2 different commands");
    expect(out).toContain("it runs 2 times");
  });

  test("a statusLine in settings.local.json wins over ctx's, and doctor says so", () => {
    const { bin } = wiredHome();
    install([], h.deps, bin);
    mkdirSync(join(h.deps.cwd, ".claude"), { recursive: true });
    const local = join(h.deps.cwd, ".claude", "settings.local.json");
    writeFileSync(local, JSON.stringify({ statusLine: { type: "command", command: "my-local-line" } }));
    doctor([], h.deps, bin);
    expect(lines()).toContain(
      `warn  statusLine: another statusLine (my-local-line) (set in ${local}, which wins): the bridge file is not written, the monitor reads the transcript`,
    );
    expect(lines()).toContain(
      `      fix: remove the statusLine from ${local}, or chain it: ctx statusline --chain '<that command>'`,
    );
  });

  test("an install from before the monitor ran on failing tool calls: that hook is missing, and install adds it once", () => {
    const { bin } = wiredHome();
    install([], h.deps, bin);
    const file = join(h.home, ".claude", "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    const group = s.hooks.PostToolUseFailure[0];
    group.hooks = group.hooks.filter((x: { command: string }) => !x.command.endsWith(" monitor"));
    writeFileSync(file, JSON.stringify(s));
    expect(doctor([], h.deps, bin)).toBe(1);
    expect(lines()).toContain("FAIL  hook PostToolUseFailure: ctx monitor: missing");
    install([], h.deps, bin);
    const again = JSON.parse(readFileSync(file, "utf8")).hooks.PostToolUseFailure;
    expect(again.flatMap((g: { hooks: { command: string }[] }) => g.hooks.map((x) => x.command))).toEqual([
      `${bin} track`,
      `${bin} monitor`,
    ]);
    const before = h.out().length;
    doctor([], h.deps, bin);
    expect(h.out().slice(before)).toContain("ok    hook PostToolUseFailure: ctx monitor: timeout 10 s");
  });

  test("nothing installed: fails, naming each missing hook and the fix", () => {
    const { bin } = wiredHome();
    expect(doctor([], h.deps, bin)).toBe(1);
    expect(lines()).toContain("FAIL  hook SessionStart: ctx resume --hook: missing");
    expect(lines()).toContain("      fix: ctx install");
    expect(lines()).toContain("FAIL  statusLine: missing");
  });

  test("not on PATH, hooks pointing at a deleted binary, a missing timeout, no tmux, no bridge dir", () => {
    const { bin } = wiredHome();
    install([], h.deps, bin);
    const file = join(h.home, ".claude", "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    delete s.hooks.Stop[0].hooks[0].timeout;
    s.hooks.PreCompact[0].hooks[0].command = "/gone/ctx track";
    writeFileSync(file, JSON.stringify(s));
    h.deps.env.PATH = "/nonexistent";
    h.deps.env.TMPDIR = join(h.root, "no-such-tmp");
    expect(doctor([], h.deps, bin)).toBe(1);
    const out = h.out();
    expect(out).toContain("FAIL  binary on PATH: no ctx on PATH");
    expect(out).toContain(`fix: add ${join(h.root, "bin")} to PATH`);
    expect(out).toContain("warn  hook Stop: ctx track: no timeout");
    expect(out).toContain("FAIL  hook PreCompact: ctx track: /gone/ctx does not exist");
    expect(out).toContain("warn  tmux: not found");
    expect(out).toContain(`FAIL  bridge directory: ${join(h.root, "no-such-tmp")} is not writable (ENOENT)`);
  });

  test("hooks registered for another ctx than the one running, and a foreign statusLine", () => {
    const { bin } = wiredHome();
    const other = join(h.root, "other", "ctx");
    mkdirSync(join(h.root, "other"));
    writeFileSync(other, "");
    install([], h.deps, other);
    const file = join(h.home, ".claude", "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    s.statusLine = { type: "command", command: "my-line" };
    writeFileSync(file, JSON.stringify(s));
    doctor([], h.deps, bin);
    expect(h.out()).toContain(`warn  hook Stop: ctx track: runs ${other}, not ${bin}`);
    expect(h.out()).toContain("warn  statusLine: another statusLine (my-line)");
    expect(h.out()).toContain("fix: ctx install (shows yours beside ctx's: ctx statusline --chain)");
  });

  test("reports invalid settings JSON with line:column", () => {
    const { bin } = wiredHome();
    mkdirSync(join(h.home, ".claude"));
    writeFileSync(join(h.home, ".claude", "settings.json"), "{\n  nope\n}");
    expect(doctor([], h.deps, bin)).toBe(1);
    expect(h.out()).toContain(
      `FAIL  settings: ${join(h.home, ".claude", "settings.json")}:2:3: expected a property name in double quotes`,
    );
  });

  test("--gemini checks Gemini's settings", () => {
    const { bin } = wiredHome();
    install(["--gemini"], h.deps, bin);
    doctor(["--gemini"], h.deps, bin);
    expect(lines()).toContain("ok    hook AfterTool: ctx monitor: timeout 10000 ms");
    expect(h.out()).not.toContain("statusLine");
  });

  test("shows the last hook errors recorded by ctx", () => {
    const { bin } = wiredHome();
    for (let i = 1; i <= 7; i++) recordHookError(h.deps, "track", new Error(`boom ${i}\n  at x`));
    doctor([], h.deps, bin);
    const out = h.out();
    expect(out).toContain(`warn  hook errors: last 5 in ${userLayout(h.deps.env).errorLog}`);
    expect(out).toContain(`${new Date(NOW).toISOString()} ctx track: Error: boom 7 at x`);
    expect(out).toContain("boom 3");
    expect(out).not.toContain("boom 2");
  });
});

describe("hook error log", () => {
  test("formatErrorLine() keeps one line, bounded", () => {
    expect(formatErrorLine("T", "monitor", new TypeError("a\nb"))).toBe("T ctx monitor: TypeError: a b\n");
    expect(formatErrorLine("T", "x", "y".repeat(2000)).length).toBeLessThan(600);
  });

  test("recordHookError() never throws: unwritable state dir, planted symlink", () => {
    h = makeHome();
    writeFileSync(join(h.root, "file"), "");
    const deps = { env: { XDG_STATE_HOME: join(h.root, "file") }, now: () => NOW };
    expect(() => recordHookError(deps, "track", new Error("x"))).not.toThrow();
    const env = { XDG_STATE_HOME: join(h.root, "state") };
    mkdirSync(join(h.root, "state", "ctx"), { recursive: true });
    symlinkSync(join(h.root, "target"), userLayout(env).errorLog);
    recordHookError({ env, now: () => NOW }, "track", new Error("x"));
    expect(() => readFileSync(join(h.root, "target"))).toThrow(); // the link was not followed
    rmSync(userLayout(env).errorLog);
    recordHookError({ env, now: () => NOW }, "track", new Error("kept"));
    expect(readRecentErrors(env, 5)).toEqual([`${new Date(NOW).toISOString()} ctx track: Error: kept`]);
  });

  test("recordHookError() empties a log grown past its cap", () => {
    h = makeHome();
    const env = { XDG_STATE_HOME: join(h.root, "state") };
    mkdirSync(join(h.root, "state", "ctx"), { recursive: true });
    writeFileSync(userLayout(env).errorLog, "old line\n".repeat(40_000));
    recordHookError({ env, now: () => NOW }, "monitor", new Error("new"));
    expect(readFileSync(userLayout(env).errorLog, "utf8")).toBe(
      `${new Date(NOW).toISOString()} ctx monitor: Error: new\n`,
    );
  });
});

describe("ctx doctor: context windows", () => {
  test("lists the recent sessions with the window ctx uses and its source", () => {
    const { bin } = wiredHome();
    const index = join(h.deps.env.XDG_STATE_HOME!, "ctx", "sessions");
    mkdirSync(index, { recursive: true });
    const at = (s: number) => new Date(NOW - s * 1000).toISOString();
    writeFileSync(
      join(index, "aaaa1111-x.json"),
      JSON.stringify({
        session_id: "aaaa1111-x",
        model: "claude-opus-4-8",
        window_size: 1_000_000,
        context_window_source: "client_default",
        updated_at: at(5),
      }),
    );
    writeFileSync(
      join(index, "bbbb2222-y.json"),
      JSON.stringify({
        session_id: "bbbb2222-y",
        model: "claude-sonnet-4-5",
        window_size: 200_000,
        updated_at: at(50),
      }),
    );
    doctor([], h.deps, bin);
    const out = h.out();
    expect(out).toContain("ok    context windows: 2 recent session(s):");
    expect(out).toContain("aaaa1111  claude-opus-4-8  window 1M (1000000)  source client_default");
    expect(out).toContain("bbbb2222  claude-sonnet-4-5  window 200k (200000)  source ?");
    expect(out.indexOf("aaaa1111")).toBeLessThan(out.indexOf("bbbb2222"));
  });
});
