import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FALLBACK_LINE } from "../../src/commands/statusline.ts";
import { runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
beforeEach(() => {
  t = tempDir();
  env = isolatedEnv(t.dir, { NO_COLOR: "1" });
  mkdirSync(env.TMPDIR!, { recursive: true });
  mkdirSync(join(t.dir, "proj", ".git"), { recursive: true });
  writeFileSync(join(t.dir, "proj", ".git", "HEAD"), "ref: refs/heads/feat\n");
});
afterEach(() => t.cleanup());

function payload(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "sess-1",
    transcript_path: join(t.dir, "t.jsonl"),
    cwd: join(t.dir, "proj"),
    model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
    workspace: { current_dir: join(t.dir, "proj"), project_dir: join(t.dir, "proj") },
    context_window: {
      context_window_size: 200000,
      current_usage: { input_tokens: 50, cache_creation_input_tokens: 1000, cache_read_input_tokens: 129000 },
      used_percentage: 65,
      remaining_percentage: 35,
    },
    ...over,
  });
}

describe("ctx statusline", () => {
  test("remembers the window Claude Code reported per model id, writing only on a change", async () => {
    const path = join(env.XDG_STATE_HOME!, "ctx", "windows.json");
    expect((await runCtx(["statusline"], { stdin: payload(), env })).code).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ "claude-sonnet-4-5": 200000 });
    const first = lstatSync(path).mtimeMs;
    await runCtx(["statusline"], { stdin: payload(), env });
    expect(lstatSync(path).mtimeMs).toBe(first);
    const opus = { model: { id: "claude-opus-4-8[1m]", display_name: "Opus 4.8 (1M context)" } };
    const big = payload({ ...opus, context_window: { context_window_size: 1000000, used_percentage: 17 } });
    await runCtx(["statusline"], { stdin: big, env });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      "claude-sonnet-4-5": 200000,
      "claude-opus-4-8[1m]": 1000000,
    });
    // No size in the payload: nothing to remember.
    await runCtx(["statusline"], { stdin: payload({ model: { id: "x" }, context_window: {} }), env });
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).not.toContain("x");
  });

  test("prints one line with Claude Code's percentage and writes the bridge", async () => {
    const r = await runCtx(["statusline"], { stdin: payload(), env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Sonnet 4.5 │ sess-1 │ proj (feat) │ ███████░░░ 65% 130k/200k\n");
    const bridgePath = join(env.TMPDIR!, "claude-ctx-sess-1.json");
    const bridge = JSON.parse(readFileSync(bridgePath, "utf8"));
    expect(bridge).toMatchObject({
      session_id: "sess-1",
      used_pct: 65,
      remaining_percentage: 35,
      used_tokens: 130050,
      context_window_size: 200000,
      model: "claude-sonnet-4-5",
    });
    expect(Math.abs(bridge.timestamp - Date.now() / 1000)).toBeLessThan(30);
    expect(lstatSync(bridgePath).mode & 0o777).toBe(0o600);
  });

  test("colours unless NO_COLOR", async () => {
    const { NO_COLOR: _, ...colourEnv } = env;
    const r = await runCtx(["statusline"], { stdin: payload(), env: colourEnv });
    expect(r.stdout).toContain("\x1b[33m");
  });

  test.each([
    ["{not json"],
    [""],
    ["[]"],
    ["null"],
    ['{"context_window":"x"}'],
  ])("input %j prints the fallback line and exits 0", async (input) => {
    const r = await runCtx(["statusline"], { stdin: input, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${FALLBACK_LINE}\n`);
    expect(r.stderr).toBe("");
  });

  test("a partial payload still prints what it has", async () => {
    const r = await runCtx(["statusline"], { stdin: JSON.stringify({ model: { display_name: "Haiku" } }), env });
    expect(r.stdout).toBe("Haiku │ ░░░░░░░░░░ --%\n");
  });

  test("a stdin that never closes is given up on", async () => {
    const proc = Bun.spawn([join(import.meta.dir, "..", "..", "dist", "ctx"), "statusline"], {
      stdin: "pipe",
      stdout: "pipe",
      env: { ...env, CTX_STATUSLINE_STDIN_TIMEOUT_MS: "300" },
    });
    proc.stdin.write(payload().slice(0, 40));
    proc.stdin.flush();
    const code = await proc.exited; // it exits while stdin is still open: it gave up on it
    expect(code).toBe(0);
    expect((await new Response(proc.stdout).text()).trim().length).toBeGreaterThan(0);
    proc.stdin.end();
  });

  test("a planted symlink at the bridge path is replaced, its target untouched", async () => {
    const victim = join(t.dir, "victim");
    writeFileSync(victim, "keep");
    symlinkSync(victim, join(env.TMPDIR!, "claude-ctx-sess-1.json"));
    const r = await runCtx(["statusline"], { stdin: payload(), env });
    expect(r.code).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("keep");
    expect(lstatSync(join(env.TMPDIR!, "claude-ctx-sess-1.json")).isFile()).toBe(true);
  });

  test("an unsafe session id writes no bridge", async () => {
    const r = await runCtx(["statusline"], { stdin: payload({ session_id: "../../evil" }), env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("65%");
    expect(
      [...new Bun.Glob("**").scanSync({ cwd: t.dir, dot: true, onlyFiles: true })].filter((f) =>
        f.includes("claude-ctx"),
      ),
    ).toEqual([]);
  });

  test("a missing TMPDIR still prints the line", async () => {
    const r = await runCtx(["statusline"], { stdin: payload(), env: { ...env, TMPDIR: join(t.dir, "nope") } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("65%");
    expect(r.stderr).toBe("");
  });
});

describe("ctx statusline --chain: your own status line beside ctx's", () => {
  /** A user's status line script: saves the payload it got, prints one coloured row and a second row. */
  function script(
    body = 'printf "\\033[32mMINE\\033[0m %s\\nsecond row\\n" "$(head -c 40 "$0.in" | tr -d "\\n")"',
  ): string {
    const path = join(t.dir, "mine.sh");
    writeFileSync(path, `cat > "$0.in"\n${body}\n`);
    return `sh ${path}`;
  }

  test("runs it with the same payload and shows both on one row, ctx's part first", async () => {
    const mine = script();
    const r = await runCtx(["statusline", "--chain", mine], { stdin: payload(), env });
    expect(r.code).toBe(0);
    const [first, second, ...rest] = r.stdout.split("\n");
    expect(first).toMatch(
      /^Sonnet 4\.5 │ sess-1 │ proj \(feat\) │ .* 65% .* │ \x1b\[32mMINE\x1b\[0m \{"session_id":"sess-1"/,
    );
    expect(second).toBe("second row");
    expect(rest).toEqual([""]);
    expect(JSON.parse(readFileSync(join(t.dir, "mine.sh.in"), "utf8"))).toEqual(JSON.parse(payload()));
  });

  test("statusline.chain in the user's config, ctx's part last; never from a project's file", async () => {
    const mine = script('echo "MINE"');
    mkdirSync(join(env.XDG_CONFIG_HOME!, "ctx"), { recursive: true });
    writeFileSync(
      join(env.XDG_CONFIG_HOME!, "ctx", "config.yaml"),
      `statusline:\n  chain: ${JSON.stringify(mine)}\n  chain_position: last\n`,
    );
    const r = await runCtx(["statusline"], { stdin: payload(), env });
    expect(r.stdout).toMatch(/^MINE │ Sonnet 4\.5 │ /);
    // a cloned repository's .ctx/config.yaml does not choose a command for ctx to run
    const planted = join(t.dir, "planted");
    mkdirSync(join(t.dir, "proj", ".ctx"), { recursive: true });
    writeFileSync(join(t.dir, "proj", ".ctx", "config.yaml"), `statusline:\n  chain: "touch ${planted}"\n`);
    const clean = isolatedEnv(t.dir, { NO_COLOR: "1" });
    const p = await runCtx(["statusline"], {
      stdin: payload(),
      env: { ...clean, XDG_CONFIG_HOME: join(t.dir, "none") },
    });
    expect(p.stdout).toMatch(/^Sonnet 4\.5 │ sess-1 │ proj \(feat\) │ [^│]*\n$/);
    expect(existsSync(planted)).toBe(false);
  });

  test("a failing, silent or hostile command leaves ctx's line alone and clean", async () => {
    const failing = await runCtx(["statusline", "--chain", "exit 3"], { stdin: payload(), env });
    expect(failing.stdout).toMatch(/^Sonnet 4\.5 │ sess-1 │ proj \(feat\) │ [^│]*\n$/);
    const hostile = script("printf 'x\\033]52;c;ZXZpbA==\\007y\\033[2Jz\\n'");
    const h = await runCtx(["statusline", "--chain", hostile], { stdin: payload(), env });
    expect(h.stdout).toMatch(/ │ xyz\n$/);
    expect(h.stdout).not.toContain("\x1b]");
    expect(h.stdout).not.toContain("\x1b[2J");
  });

  test("a bad payload still shows the fallback, with yours beside it", async () => {
    const r = await runCtx(["statusline", "--chain", "echo MINE"], { stdin: "not json", env });
    expect(r.stdout).toBe(`${FALLBACK_LINE} │ MINE\n`);
  });
});

describe("ctx statusline: the session's label", () => {
  test("in tmux, the window's name, asked once per session and kept in the bridge file", async () => {
    const sock = join(t.dir, "tmux.sock");
    const tmux = (...args: string[]) =>
      Bun.spawnSync(["tmux", "-S", sock, "-f", "/dev/null", ...args], { env: { ...env, TMUX_TMPDIR: t.dir } });
    expect(tmux("new-session", "-d", "-s", "work", "-n", "alpaca", "sleep", "60").exitCode).toBe(0);
    try {
      const pane = tmux("display-message", "-p", "-t", "work:0", "#{pane_id}").stdout.toString().trim();
      const inTmux = { ...env, TMUX: `${sock},1,0`, TMUX_PANE: pane };
      const first = await runCtx(["statusline"], { stdin: payload(), env: inTmux });
      expect(first.stdout).toBe("Sonnet 4.5 │ alpaca │ proj (feat) │ ███████░░░ 65% 130k/200k\n");
      expect(JSON.parse(readFileSync(join(env.TMPDIR!, "claude-ctx-sess-1.json"), "utf8")).label).toBe("alpaca");
      // renamed since: the kept label stands (tmux is not asked again for this session)
      expect(tmux("rename-window", "-t", "work:0", "bison").exitCode).toBe(0);
      const again = await runCtx(["statusline"], { stdin: payload(), env: inTmux });
      expect(again.stdout).toContain("│ alpaca │");
      // another session in the same window asks and gets the new name
      const other = await runCtx(["statusline"], { stdin: payload({ session_id: "sess-2" }), env: inTmux });
      expect(other.stdout).toContain("│ bison │");
    } finally {
      tmux("kill-server");
    }
  });

  test("outside tmux, the client's session name when it gives one, else the short id", async () => {
    const named = await runCtx(["statusline"], { stdin: payload({ session_name: "refactor" }), env });
    expect(named.stdout).toContain("Sonnet 4.5 │ refactor │ proj");
    const plain = await runCtx(["statusline"], {
      stdin: payload({ session_id: "0123456789abcdef" }),
      env: { ...env, TMUX_PANE: "%9" }, // a pane id without TMUX: no tmux to ask
    });
    expect(plain.stdout).toContain("Sonnet 4.5 │ 01234567 │ proj");
  });
});
