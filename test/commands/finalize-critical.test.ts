import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
});
afterEach(() => t.cleanup());

function bridge(usedPct: number): void {
  writeFileSync(
    join(env.TMPDIR!, "claude-ctx-s1.json"),
    JSON.stringify({
      session_id: "s1",
      used_pct: usedPct,
      remaining_percentage: 100 - usedPct,
      timestamp: Math.floor(Date.now() / 1000),
      used_tokens: usedPct * 2000,
      context_window_size: 200000,
    }),
  );
}
const hookInput = () =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: FIXTURE,
    cwd: project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
  });

test("ctx monitor at CRITICAL starts one background finalize per crossing", async () => {
  const marker = join(project, ".ctx", "state", "monitor", "s1.finalize");
  const sessions = join(project, ".ctx", "sessions");
  bridge(80);
  expect((await runCtx(["monitor"], { stdin: hookInput(), env })).code).toBe(0);
  expect(existsSync(marker)).toBe(true);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !existsSync(join(sessions, "LATEST-SESSION.txt"))) await Bun.sleep(50);
  const summaries = readdirSync(sessions).filter((n) => n.startsWith("summary-chain-s1-") && n.endsWith(".md"));
  expect(summaries).toHaveLength(1);
  // The transcript's latest request is at ~9 %; the bridge that triggered CRITICAL says 80 %.
  const md = readFileSync(join(sessions, summaries[0]!), "utf8");
  expect(md).toContain("- Context at handoff: 80% used (160000 / 200000 tokens");
  expect(md).toContain("- 4 tool calls");
  const twin = JSON.parse(readFileSync(join(sessions, summaries[0]!.replace(/\.md$/, ".json")), "utf8"));
  expect(twin.task_id).toBe("chain-s1");
  expect(twin.goal).toStartWith("Please create hello.txt");
  await runCtx(["monitor"], { stdin: hookInput(), env });
  expect(existsSync(marker)).toBe(true);
  bridge(20);
  await runCtx(["monitor"], { stdin: hookInput(), env });
  expect(existsSync(marker)).toBe(false); // below critical: the next crossing finalizes again
});

/** A failing Bash call (Claude Code fires PostToolUseFailure, not PostToolUse, for it). */
const failureInput = () =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: FIXTURE,
    cwd: project,
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "false" },
    tool_use_id: "toolu_failing",
    error: "Exit code 1",
  });
/**
 * Runs a hook command with CTX_DEBUG (its stderr says when it starts a finalize) and every CRITICAL repeated.
 * The fixture never receives the tool's request line, so track would wait for it the whole
 * track.transcript_wait_ms while the background finalize writes: 0 keeps track ahead of it, as in a
 * live session where the line is there at once.
 */
async function hookRun(cmd: "monitor" | "track", stdin: string) {
  const quick = { CTX_DEBUG: "1", CTX_MONITOR_DEBOUNCE_CALLS: "1", CTX_TRACK_TRANSCRIPT_WAIT_MS: "0" };
  const r = await runCtx([cmd], { stdin, env: { ...env, ...quick } });
  expect(r.code).toBe(0);
  const started = (r.stderr.match(/finalize: started in the background/g) ?? []).length;
  return { out: r.stdout ? JSON.parse(r.stdout) : undefined, started };
}
async function until(path: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !existsSync(path)) await Bun.sleep(50);
}
/** Waits for the background finalize to record its summary in the session state (after the summary itself). */
async function finalized(sessionId: string): Promise<void> {
  const path = join(project, ".ctx", "state", "sessions", `${sessionId}.json`);
  const done = () => existsSync(path) && typeof JSON.parse(readFileSync(path, "utf8")).finalized_stamp === "string";
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !done()) await Bun.sleep(50);
}

test("CRITICAL crossed on a failing tool call: the monitor answers PostToolUseFailure and starts the one finalize", async () => {
  const sessions = join(project, ".ctx", "sessions");
  bridge(80);
  const first = await hookRun("monitor", failureInput());
  expect(first.out.hookSpecificOutput.hookEventName).toBe("PostToolUseFailure");
  expect(first.out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL: 80%");
  expect(first.out.hookSpecificOutput.additionalContext).toEndWith(
    "ctx is writing the handoff summary now, so the work can be continued in a fresh context.",
  );
  expect(first.started).toBe(1);
  // track on the same event crosses CRITICAL too: it tells the user, and starts no second finalize.
  const tracked = await hookRun("track", failureInput());
  expect(tracked.started).toBe(0);
  expect(tracked.out.systemMessage).toContain("CRITICAL");
  expect(tracked.out.systemMessage).toMatch(/Handoff: (ctx finalize is writing the handoff summary now|the handoff)/);
  await until(join(sessions, "LATEST-SESSION.txt"));
  await finalized("s1");
  const summaries = readdirSync(sessions).filter((n) => n.startsWith("summary-chain-s1-") && n.endsWith(".md"));
  expect(summaries).toHaveLength(1);
  // The next CRITICAL (a succeeding call this time) gives the summary's path, and starts nothing.
  const later = await hookRun("monitor", hookInput());
  expect(later.started).toBe(0);
  expect(later.out.hookSpecificOutput.additionalContext).toContain(
    `The handoff summary is written (${join(sessions, summaries[0]!)})`,
  );
});

test("a finalize that fails says so: the next CRITICAL names the reason instead of a summary", async () => {
  // Something planted where the summaries go: the background finalize cannot write there.
  mkdirSync(join(project, ".ctx"), { recursive: true });
  writeFileSync(join(project, ".ctx", "sessions"), "not a directory");
  bridge(80);
  const first = await hookRun("monitor", failureInput());
  expect(first.started).toBe(1);
  const marker = join(project, ".ctx", "state", "monitor", "s1.finalize");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !readFileSync(marker, "utf8").includes("error")) await Bun.sleep(50);
  const later = await hookRun("monitor", hookInput());
  const text = later.out.hookSpecificOutput.additionalContext as string;
  expect(text).toContain("The handoff summary could not be written (");
  expect(text).not.toContain("is written (");
  expect(later.started).toBe(0);
  // ctx doctor shows it too: the hook error log has the finalize's failure.
  const log = readFileSync(join(env.XDG_STATE_HOME!, "ctx", "errors.log"), "utf8");
  expect(log).toContain("finalize:");
});

test("track's CRITICAL tells the user what to do: /clear, or nothing when ctx respawn supervises the session", async () => {
  bridge(80);
  const alone = await hookRun("track", hookInput());
  expect(alone.out.systemMessage).toContain("You: when the agent has finished its step, type /clear;");
  // the exact summary the crossing's finalize writes, named before it exists
  const named = /\(or quit and run 'ctx resume ([^']+)'\)/.exec(alone.out.systemMessage)?.[1];
  expect(named).toMatch(/\/\.ctx\/sessions\/summary-[^/]+-\d{8}-\d{6}\.md$/);
  for (let i = 0; i < 100 && !existsSync(named!); i++) await Bun.sleep(100);
  expect(existsSync(named!)).toBe(true);
  // a running supervisor's record, named by the session's index entry (as ctx respawn's recorder writes them)
  const root = join(project, ".ctx");
  mkdirSync(join(root, "state", "respawn"), { recursive: true });
  const record = join(root, "state", "respawn", "work.json");
  writeFileSync(record, JSON.stringify({ version: 1, name: "work", pid: process.pid, phase: "watching", events: [] }));
  const entry = join(env.XDG_STATE_HOME!, "ctx", "sessions", "s1.json");
  writeFileSync(entry, JSON.stringify({ ...JSON.parse(readFileSync(entry, "utf8")), respawn: { state_path: record } }));
  bridge(20);
  await hookRun("track", hookInput()); // below the levels: the next crossing is reported again
  bridge(80);
  const supervised = await hookRun("track", hookInput());
  expect(supervised.out.systemMessage).toContain("CRITICAL");
  expect(supervised.out.systemMessage).toContain("You: nothing to do, ctx respawn supervises this session");
  expect(supervised.out.systemMessage).not.toContain("/clear");
});
