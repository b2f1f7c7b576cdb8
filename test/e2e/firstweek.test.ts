/**
 * A new user's first week (issue 12), with the real Claude Code client against the fake API,
 * in a git repository: ctx's state stays out of git, the agent and the user read the same level
 * word for the same figure, and commands typed in a subfolder find the project.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { runClaudeP } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { bashTurn, lastUserText, type Turn } from "./fake-api.ts";

const rig = stopAfterEach();

const EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"];

function git(cwd: string, env: Record<string, string>, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const ctx = (args: string[], cwd: string, env: Record<string, string>) => runCtx(args, { env, cwd });

test("e2e: state out of git, one ladder of levels for the agent and the user", async () => {
  // 50 %, then 66 % (warning), 76 % (critical), 91 % (auto_pause), then the final answer
  const turns: Turn[] = [
    bashTurn("echo start", 100_000),
    bashTurn("echo wrapping-up", 132_000),
    bashTurn("sed -i s/one/two/ notes.txt", 152_000),
    bashTurn("echo last", 182_000),
    {
      content: [{ type: "text", text: "Done for now." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 182_400 },
    },
  ];
  const api = await rig.api(turns);
  const sandbox = await rig.sandbox({
    apiUrl: api.url,
    projectFiles: { "notes.txt": "one\n", "src/main.ts": "export {};\n", ".gitignore": "node_modules\n" },
  });
  const { project, env, root } = sandbox;
  git(project, env, "init", "-q");
  git(project, env, "add", "-A");
  git(project, env, "commit", "-qm", "initial");
  // every track and monitor output is kept, so what the user and the agent were told can be compared
  const out = join(root, "hook-out");
  mkdirSync(out);
  const tee = (cmd: string, file: string) => `${CTX_BIN} ${cmd} | tee -a ${join(out, file)}`;
  const hooks: Record<string, object[]> = {};
  for (const e of EVENTS) {
    const list = [{ type: "command", command: tee("track", "track.jsonl") }];
    if (e === "PostToolUse") list.push({ type: "command", command: tee("monitor", "monitor.jsonl") });
    hooks[e] = [{ ...(e.startsWith("PostToolUse") ? { matcher: "*" } : {}), hooks: list }];
  }
  writeFileSync(join(sandbox.home, ".claude", "settings.json"), JSON.stringify({ hooks }, null, 2));

  const r = await runClaudeP(sandbox, "Work through the steps", { timeoutMs: 120_000 });
  expect(r.code).toBe(0);
  const sid: string = r.json.session_id;
  // SessionEnd after an auto-pause finalizes in the background: wait for it
  const sessions = join(project, ".ctx", "sessions");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !existsSync(join(sessions, "LATEST-SESSION.txt"))) await Bun.sleep(100);
  await Bun.sleep(300);

  // 1. ctx's state never lands in git: .ctx/.gitignore holds *, the user's .gitignore is untouched
  expect(readFileSync(join(project, ".ctx", ".gitignore"), "utf8").split("\n")).toContain("*");
  expect(readFileSync(join(project, ".gitignore"), "utf8")).toBe("node_modules\n");
  const dirty = git(project, env, "status", "--porcelain", "--untracked-files=all");
  expect(dirty).not.toContain(".ctx");
  expect(dirty.trim()).toBe("M notes.txt"); // only the agent's own change
  git(project, env, "add", "-A");
  expect(git(project, env, "diff", "--cached", "--name-only").trim()).toBe("notes.txt");

  // 2. one ladder: the same word for the same figure, for the agent and the user
  const main = api.mainRequests();
  expect(main).toHaveLength(turns.length);
  const agent = main.map((req) => lastUserText(req));
  expect(agent[1]).not.toContain("CONTEXT");
  expect(agent[2]).toContain("CONTEXT WARNING: 66% of the context window is used");
  expect(agent[3]).toContain("CONTEXT CRITICAL: 76% of the context window is used");
  expect(agent[4]).toContain("CONTEXT CRITICAL: 91% of the context window is used, 9% remains. Level auto_pause");
  const told = readFileSync(join(out, "track.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l).systemMessage as string);
  expect(told).toEqual([
    expect.stringMatching(/^ctx: context 66% used \(132k\/200k tokens\), WARNING\./),
    expect.stringMatching(/^ctx: context 76% used \(152k\/200k tokens\), CRITICAL\./),
    expect.stringMatching(/^ctx: context 91% used \(182k\/200k tokens\), AUTO-PAUSE\./),
  ]);
  const state = JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", `${sid}.json`), "utf8"));
  expect(state).toMatchObject({ used_pct: 91, threshold_reached: "auto_pause", auto_pause_active: true });
  const statusEnv = { ...env, NO_COLOR: "1" };
  const json = JSON.parse((await ctx(["status", "--json"], project, statusEnv)).stdout);
  expect(json.sessions[0]).toMatchObject({ session_id: sid, used_pct: 91, level: "auto_pause" });

  // 5. seconds after the run ended, ctx status shows it as ended (not "stale", not hidden), in its level's colour
  const table = await ctx(["status"], project, { ...env, FORCE_COLOR: "1" });
  expect(table.stdout).toContain("\x1b[31mauto_pause");
  expect(table.stdout).toMatch(/Sonnet 4\.5 .*\bended\s+\d+s ago/); // only ended: never `ended,paused`
  expect(table.stdout).not.toContain("stale");

  // 3. commands typed in a subfolder find the project (no CLAUDE_PROJECT_DIR outside the client)
  const sub = join(project, "src");
  expect(env.CLAUDE_PROJECT_DIR).toBeUndefined();
  const listed = JSON.parse((await ctx(["status", "--project", ".", "--json", "--all"], sub, statusEnv)).stdout);
  expect(listed.sessions.map((x: { session_id: string }) => x.session_id)).toEqual([sid]);
  const printed = await ctx(["resume", "--print", "--latest"], sub, env);
  expect({ code: printed.code, stderr: printed.stderr }).toEqual({ code: 0, stderr: "" });
  expect(printed.stdout).toContain("Work through the steps");
  const fin = await ctx(["finalize"], sub, env);
  expect({ code: fin.code, stderr: fin.stderr }).toEqual({ code: 0, stderr: "" });
  expect(fin.stdout.trim()).toStartWith(join(project, ".ctx", "sessions", "summary-"));
  expect(existsSync(join(sub, ".ctx"))).toBe(false);

  // 8. the summary sees the file a command changed (sed -i), marked so, and nothing of .ctx/
  const summary = readFileSync(fin.stdout.trim(), "utf8");
  const from = summary.indexOf("## Files modified");
  const files = summary.slice(from, summary.indexOf("\n## ", from + 1));
  expect(files).toContain("- `notes.txt` (changed by commands)"); // relative to the project, like the tools' files
  expect(files).not.toContain(".ctx");
  expect(files).not.toContain("(none)");
  expect(summary).toMatch(/^- Context at handoff: 91% used \(.*\), model claude-sonnet-4-5, level auto_pause$/m);
}, 180_000);
