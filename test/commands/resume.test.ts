import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";
import { writeOwnSummary, writeOwnTwin } from "../helpers/written.ts";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let project: string;
let sessions: string;
let argvFile: string;
let fakeClaude: string;
beforeEach(() => {
  t = tempDir();
  project = join(t.dir, "proj");
  sessions = join(project, ".ctx", "sessions");
  mkdirSync(sessions, { recursive: true });
  // A stand-in for claude that records its argv (NUL-separated) and exits with $FAKE_EXIT.
  argvFile = join(t.dir, "argv");
  fakeClaude = join(t.dir, "bin", "claude");
  mkdirSync(join(t.dir, "bin"));
  writeFileSync(fakeClaude, `#!/bin/sh\nprintf '%s\\0' "$@" > '${argvFile}'\nexit \${FAKE_EXIT:-0}\n`);
  chmodSync(fakeClaude, 0o755);
  env = isolatedEnv(t.dir, { CLAUDE_PROJECT_DIR: project, CTX_CLAUDE: fakeClaude });
  mkdirSync(env.TMPDIR!, { recursive: true });
});
afterEach(() => t.cleanup());

function summary(name: string, text: string, ageS = 0): string {
  const p = join(sessions, name);
  writeOwnSummary(env, p, text);
  const when = Date.now() / 1000 - ageS;
  utimesSync(p, when, when);
  return p;
}
const claudeArgv = () => readFileSync(argvFile, "utf8").split("\0").slice(0, -1);
const resume = (args: string[], extra: Record<string, string> = {}, stdin?: string) =>
  runCtx(["resume", ...args], { env: { ...env, ...extra }, cwd: project, stdin });

describe("ctx resume <summary>", () => {
  test("starts claude with the pass-through args, then -- and the prompt carrying the summary; exits with claude's code", async () => {
    const p = summary("summary-t-20250101-120000.md", "# Handoff\n- [ ] finish the parser\n");
    const r = await resume([p, "--", "-p", "--output-format", "json"], { FAKE_EXIT: "7" });
    expect(r.code).toBe(7);
    const argv = claudeArgv();
    expect(argv.slice(0, 4)).toEqual(["-p", "--output-format", "json", "--"]);
    expect(argv).toHaveLength(5);
    expect(argv[4]).toContain("Read the previous session's summary below and continue the remaining work");
    expect(argv[4]).toContain("- [ ] finish the parser");
    expect(argv[4]).toContain(p);
  });

  test("the launched session continues the summary's chain: CTX_TASK_ID, CLAUDE_CODE_TASK_LIST_ID, CTX_RESUMED_FROM", async () => {
    const p = summary("summary-chain-abcd1234-20250101-120000.md", "# Handoff\n");
    const twin = { version: 1, task_id: "chain-abcd1234", session_id: "s-before", sessions: ["s-before"] };
    writeFileSync(p.replace(/\.md$/, ".json"), JSON.stringify(twin));
    const envFile = join(t.dir, "env");
    writeFileSync(fakeClaude, `#!/bin/sh\nenv > '${envFile}'\n`);
    // a twin ctx did not write names no session: the chain comes from the summary's name only
    expect((await resume([p], { CTX_RESUMED_FROM: "stale" })).code).toBe(0);
    expect(readFileSync(envFile, "utf8")).not.toContain("CTX_RESUMED_FROM=");
    writeOwnTwin(env, p.replace(/\.md$/, ".json"), twin);
    expect((await resume([p], { CTX_RESUMED_FROM: "stale" })).code).toBe(0);
    const seen = readFileSync(envFile, "utf8");
    expect(seen).toContain("CTX_TASK_ID=chain-abcd1234\n");
    expect(seen).toContain("CLAUDE_CODE_TASK_LIST_ID=chain-abcd1234\n");
    expect(seen).toContain("CTX_RESUMED_FROM=s-before\n");
  });

  test("a relative path is resolved against the working directory; claude found on PATH without CTX_CLAUDE", async () => {
    summary("summary-t-20250101-120000.md", "rel body");
    const { CTX_CLAUDE: _drop, ...rest } = env;
    const r = await runCtx(["resume", ".ctx/sessions/summary-t-20250101-120000.md"], {
      env: { ...rest, PATH: `${join(t.dir, "bin")}:${env.PATH}` },
      cwd: project,
    });
    expect(r.code).toBe(0);
    expect(claudeArgv()[1]).toContain("rel body");
  });

  test("--latest picks the newest summary of the project's one chain (by its stamp)", async () => {
    summary("summary-a-20250101-100000.md", "older", 0);
    summary("summary-a-20250102-100000.md", "newest", 100);
    expect((await resume(["--latest"])).code).toBe(0);
    expect(claudeArgv()[1]).toContain("newest");
  });

  /** A session state of the project as `ctx track` writes it, run in `terminal`. */
  function sessionIn(sid: string, task: string, terminal: string | null, updatedAt = new Date().toISOString()): void {
    const dir = join(project, ".ctx", "state", "sessions");
    mkdirSync(dir, { recursive: true });
    const state = { version: 1, session_id: sid, project, task_id: task, terminal, updated_at: updatedAt };
    writeFileSync(join(dir, `${sid}.json`), JSON.stringify(state));
  }

  test("--latest with two chains picks the chain of the session last run in this tmux pane, not the newest", async () => {
    summary("summary-mine-20250101-100000.md", "my task", 0);
    summary("summary-other-20250102-100000.md", "the other session's task", 0);
    sessionIn("s-mine", "mine", "tmux:%7");
    sessionIn("s-other", "other", "tmux:%9");
    const pane = { TMUX: "/tmp/tmux-1/default,1,0", TMUX_PANE: "%7" };
    expect((await resume(["--latest"], pane)).code).toBe(0);
    expect(claudeArgv()[1]).toContain("my task");
    expect((await resume(["--print", "--latest"], { ...pane, TMUX_PANE: "%9" })).stdout).toContain(
      "the other session's task",
    );
  });

  test("--latest, ambiguous and not on a terminal: exit 2 with the candidates, nothing started", async () => {
    const a = summary("summary-alpha-20250101-100000.md", "alpha", 0);
    const b = summary("summary-beta-20250102-100000.md", "beta", 0);
    const r = await resume(["--latest"], { TMUX: "x", TMUX_PANE: "%3" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--latest is ambiguous: 2 chains have summaries and no session of this project ran in this terminal",
    );
    expect(r.stderr).toContain(`  1. ${b}  (chain beta, 2025-01-02 10:00)`);
    expect(r.stderr).toContain(`  2. ${a}  (chain alpha, 2025-01-01 10:00)`);
    expect(r.stderr).toContain("ctx resume <path>");
    expect(existsSync(argvFile)).toBe(false);
    // this pane's chain without a summary is no reason to take another chain's, even the only one
    sessionIn("s-here", "here", "tmux:%3");
    const only = await resume(["--latest"], { TMUX: "x", TMUX_PANE: "%3" });
    expect(only.code).toBe(2);
    expect(only.stderr).toContain("the session last run in this terminal (chain here) has no summary");
  });

  test("--latest, ambiguous on a terminal: lists the candidates and asks which", async () => {
    summary("summary-alpha-20250101-100000.md", "alpha body", 0);
    summary("summary-beta-20250102-100000.md", "beta body", 0);
    // script(1) gives ctx a terminal on stdin and stderr; the answer "2" picks the older chain
    const cmd = `'${CTX_BIN}' resume --print --latest`;
    const proc = Bun.spawn(["script", "-qec", cmd, "/dev/null"], {
      cwd: project,
      env: { ...env, TERM: "dumb" },
      stdin: new TextEncoder().encode("2\n"),
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(out).toContain("2 chains have summaries");
    expect(out).toContain("Which one? [1-2]");
    expect(out).toContain("alpha body");
    expect(out).not.toContain("beta body");
  }, 20_000);

  test("--latest honours CTX_DIR", async () => {
    const other = join(t.dir, "elsewhere");
    mkdirSync(join(other, "sessions"), { recursive: true });
    writeOwnSummary(env, join(other, "sessions", "summary-x-20250101-000000.md"), "from CTX_DIR");
    expect((await resume(["--latest"], { CTX_DIR: other })).code).toBe(0);
    expect(claudeArgv()[1]).toContain("from CTX_DIR");
  });

  test("--print prints the prompt and starts nothing", async () => {
    const p = summary("summary-t-20250101-120000.md", "print me");
    const r = await resume(["--print", p]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[1]).toContain("continue the remaining work");
    expect(r.stdout).toContain("print me");
    expect(existsSync(argvFile)).toBe(false);
  });

  test("--dry-run shows the shell command and starts nothing", async () => {
    summary("summary-t-20250101-120000.md", "dry body");
    const r = await resume(["--dry-run", "--latest", "--", "-p"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${fakeClaude} -p -- 'You are continuing`)).toBe(true);
    expect(r.stdout).toContain("dry body");
    expect(existsSync(argvFile)).toBe(false);
  });

  test.each([
    ["missing", () => join(project, "nope.md"), /summary not found/],
    ["empty", () => summary("summary-e.md", " \n\n"), /summary is empty/],
    ["a directory", () => sessions, /is a directory/],
    ["too large", () => summary("summary-big.md", "x".repeat(200 * 1024)), /summary too large/],
  ])("a %s summary is an error with a hint, exit 1, and no session", async (_n, make, msg) => {
    const r = await resume([make()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).toContain("hint:");
    expect(r.stdout).toBe("");
    expect(existsSync(argvFile)).toBe(false);
  });

  test("--latest without any summary is exit 1 with a hint", async () => {
    const r = await resume(["--latest"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no summary found");
    expect(r.stderr).toContain("hint:");
  });

  test("claude not found is exit 1 with an install hint", async () => {
    summary("summary-t-20250101-120000.md", "x");
    const r = await resume(["--latest"], { CTX_CLAUDE: join(t.dir, "no-such-claude") });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("CTX_CLAUDE");
  });

  test("usage errors exit 2", async () => {
    expect((await resume([])).code).toBe(2);
    expect((await resume(["--latest", "a.md"])).code).toBe(2);
  });

  test("a launched summary is marked consumed, so a later /clear does not inject it again", async () => {
    summary("summary-t-20250101-120000.md", "once");
    expect((await resume(["--latest"])).code).toBe(0);
    const ledger = JSON.parse(readFileSync(join(project, ".ctx", "state", "resume-ledger.json"), "utf8"));
    expect(ledger.consumed["summary-t-20250101-120000.md"]).toMatchObject({ session_id: null, via: "cli" });
    const hook = await resume(
      ["--hook"],
      {},
      JSON.stringify({ session_id: "s2", hook_event_name: "SessionStart", source: "clear", cwd: project }),
    );
    expect(hook.stdout).toBe("");
  });
});
