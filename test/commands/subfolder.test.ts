/**
 * One project for hooks and typed commands: a client started in a subfolder of a repository (its hooks get
 * that subfolder as CLAUDE_PROJECT_DIR and cwd) shares the repository's `.ctx/` with every typed command.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
let t: ReturnType<typeof tempDir>;
let repo: string;
let sub: string;
/** The environment Claude Code gives the hooks of a client started in `sub`. */
let hookEnv: Record<string, string>;
beforeEach(() => {
  t = tempDir();
  repo = join(t.dir, "shop");
  sub = join(repo, "src");
  mkdirSync(join(repo, ".git"), { recursive: true });
  writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(sub, "lib"), { recursive: true });
  hookEnv = isolatedEnv(t.dir, { NO_COLOR: "1", CLAUDE_PROJECT_DIR: sub, CLAUDECODE: "1" });
  mkdirSync(hookEnv.TMPDIR!, { recursive: true });
});
afterEach(() => t.cleanup());

const hook = (event: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: "s1", transcript_path: FIXTURE, cwd: sub, hook_event_name: event, ...over });
/** A person's shell at the repository root: no CLAUDE_PROJECT_DIR. */
const rootEnv = () => {
  const { CLAUDE_PROJECT_DIR: _p, CLAUDECODE: _c, ...rest } = hookEnv;
  return rest;
};

test("status line, track, monitor, finalize, resume hook: all in the repository's .ctx/, none in the subfolder", async () => {
  const line = await runCtx(["statusline"], {
    env: hookEnv,
    stdin: JSON.stringify({
      session_id: "s1",
      cwd: sub,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
      workspace: { current_dir: sub, project_dir: sub },
      context_window: { context_window_size: 200000, used_percentage: 80, remaining_percentage: 20 },
    }),
  });
  // The repository's name and branch, not the subfolder's.
  expect(line.stdout).toContain("│ shop (main) │");
  for (const event of ["SessionStart", "UserPromptSubmit"])
    expect(
      (await runCtx(["track"], { env: hookEnv, stdin: hook(event, { prompt: "go", source: "startup" }) })).code,
    ).toBe(0);
  const tool = hook("PostToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, cwd: join(sub, "lib") });
  const warned = await runCtx(["monitor"], { env: hookEnv, stdin: tool });
  expect(JSON.parse(warned.stdout).hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL: 80%");
  await runCtx(["track"], { env: hookEnv, stdin: tool });
  const sessions = join(repo, ".ctx", "sessions");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !existsSync(join(sessions, "LATEST-SESSION.txt"))) await Bun.sleep(50);
  expect(existsSync(join(repo, ".ctx", "state", "sessions", "s1.json"))).toBe(true);
  expect(readdirSync(sessions).filter((n) => n.startsWith("summary-chain-s1-") && n.endsWith(".md"))).toHaveLength(1);
  expect(existsSync(join(sub, ".ctx"))).toBe(false);
  expect(existsSync(join(sub, "lib", ".ctx"))).toBe(false);

  // From the repository root a person finds that summary; `ctx status` shows one project.
  const latest = await runCtx(["resume", "--latest", "--print"], { env: rootEnv(), cwd: repo });
  expect(latest.code).toBe(0);
  expect(latest.stdout).toContain(join(sessions, "summary-chain-s1-"));
  const status = await runCtx(["status", "--all", "--json"], { env: rootEnv(), cwd: repo });
  const rows = JSON.parse(status.stdout);
  const projects = new Set(
    (Array.isArray(rows) ? rows : (rows.sessions ?? [])).map((r: { project: string }) => r.project),
  );
  expect([...projects]).toEqual([repo]);

  // After /clear in the subfolder, the resume hook finds the chain in the repository's .ctx/ too.
  const cleared = hook("SessionStart", { session_id: "s2", source: "clear" });
  await runCtx(["track"], { env: hookEnv, stdin: cleared });
  const resumed = await runCtx(["resume", "--hook"], { env: hookEnv, stdin: cleared });
  expect(resumed.code).toBe(0);
  expect(existsSync(join(sub, ".ctx"))).toBe(false);
});
