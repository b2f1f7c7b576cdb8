import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
const SID = "f7ec5035-802f-40d6-a0b6-e8fafc9e3b7f";
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox({ CTX_TASK_ID: "task-42", CTX_TEAM: "team-5" }));
});
afterEach(() => t.cleanup());

const sessions = () => join(project, ".ctx", "sessions");
const hook = (event: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: SID, transcript_path: FIXTURE, cwd: project, hook_event_name: event, ...over });

describe("ctx finalize", () => {
  test("a session ctx never tracked gets the level of its reading (70 % is warning, not ok)", async () => {
    const transcript = join(t.dir, "untracked.jsonl");
    const line = {
      type: "assistant",
      sessionId: "0a1b2c3d-0000-4000-8000-000000000001",
      timestamp: new Date().toISOString(),
      requestId: "req_1",
      message: {
        id: "msg_1",
        model: "claude-sonnet-4-5",
        usage: { input_tokens: 100, cache_read_input_tokens: 139_900, output_tokens: 10 },
        content: [{ type: "text", text: "Halfway through." }],
      },
    };
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n${JSON.stringify(line)}\n`,
    );
    const r = await runCtx(["finalize", "--transcript", transcript], { env, cwd: project });
    expect(r.code).toBe(0);
    const md = readFileSync(r.stdout.trim(), "utf8");
    expect(md).toMatch(
      /- Context at handoff: 70% used \(140000 \/ 200000 tokens, [^)]*\), model claude-sonnet-4-5, level warning\n/,
    );
  });

  test("writes the records, archives the action log and prints the summary path; a rerun rewrites the same files", async () => {
    await runCtx(["track"], { stdin: hook("SessionStart", { source: "startup" }), env });
    await runCtx(["track"], {
      stdin: hook("PostToolUse", { tool_name: "Edit", tool_input: { file_path: "/a.ts" } }),
      env,
    });
    // Task files as the client stores them.
    mkdirSync(join(env.HOME!, ".claude", "tasks", SID), { recursive: true });
    writeFileSync(
      join(env.HOME!, ".claude", "tasks", SID, "2.json"),
      JSON.stringify({ id: "2", subject: "Write the docs", status: "in_progress" }),
    );
    const r = await runCtx(["finalize", "--session", SID], { env, cwd: project });
    expect(r.code).toBe(0);
    const summaryPath = r.stdout.trim();
    expect(summaryPath).toMatch(/\/\.ctx\/sessions\/summary-task-42-\d{8}-\d{6}\.md$/);
    const md = readFileSync(summaryPath, "utf8");
    expect(md).toContain("- Task: task-42");
    expect(md).toContain("- Team: team-5");
    expect(md).toContain(`- Sessions (1, oldest first): ${SID}`);
    expect(md).toContain("93% used (185000 / 200000 tokens");
    expect(md).toContain("- [ ] #2 Write the docs (in progress)");
    const stamp = /-(\d{8}-\d{6})\.md$/.exec(summaryPath)![1];
    const name = `session-${stamp}`;
    for (const ext of [".json", ".yaml", ".md", "-incremental.jsonl"])
      expect(existsSync(join(sessions(), `${name}${ext}`))).toBe(true);
    expect(readFileSync(join(sessions(), "LATEST-SESSION.txt"), "utf8").trim()).toBe(`${name}.json`);
    const record = JSON.parse(readFileSync(join(sessions(), `${name}.json`), "utf8"));
    expect(record).toMatchObject({
      version: 1,
      session_id: SID,
      task_id: "task-42",
      team: "team-5",
      pause_actions: 2,
      summary_path: summaryPath,
    });
    expect(record.state.cursor).toBeUndefined();
    expect(readFileSync(join(sessions(), `${name}.yaml`), "utf8")).toContain(`session_id: ${SID}`);
    // Idempotent: the same files, no duplicates.
    const before = readdirSync(sessions()).sort();
    const again = await runCtx(["finalize", "--session", SID], { env, cwd: project });
    expect(again.stdout.trim()).toBe(summaryPath);
    expect(readdirSync(sessions()).sort()).toEqual(before);
    expect(
      readFileSync(join(sessions(), `${name}-incremental.jsonl`), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(2);
  });

  test("--ended removes the ACTIVE-PAUSE log after archiving it", async () => {
    await runCtx(["track"], { stdin: hook("SessionStart"), env });
    expect(existsSync(join(sessions(), `ACTIVE-PAUSE-${SID}.jsonl`))).toBe(true);
    const r = await runCtx(["finalize", "--session", SID, "--ended"], { env, cwd: project });
    expect(r.code).toBe(0);
    expect(existsSync(join(sessions(), `ACTIVE-PAUSE-${SID}.jsonl`))).toBe(false);
    expect(readdirSync(sessions()).filter((n) => n.endsWith("-incremental.jsonl"))).toHaveLength(1);
  });

  test("works from a transcript alone, naming the session after the file", async () => {
    const r = await runCtx(["finalize", "--transcript", FIXTURE], { env, cwd: project });
    expect(r.code).toBe(0);
    const md = readFileSync(r.stdout.trim(), "utf8");
    expect(md).toContain("> Please create hello.txt");
    // Never tracked: the context figure comes from the transcript's latest main-chain request.
    expect(md).toMatch(/Context at handoff: [1-9]\d*% used \([1-9]\d* \/ 200000 tokens/);
  });

  test("a session that replaced another after /clear points to the summary the earlier one left", async () => {
    await runCtx(["track"], { stdin: hook("SessionStart", { source: "startup" }), env });
    const first = (await runCtx(["finalize", "--session", SID], { env, cwd: project })).stdout.trim();
    const statesDir = join(project, ".ctx", "state", "sessions");
    const old = JSON.parse(readFileSync(join(statesDir, `${SID}.json`), "utf8"));
    writeFileSync(
      join(statesDir, "s-next.json"),
      JSON.stringify({
        ...old,
        session_id: "s-next",
        previous_session_id: SID,
        finalized_stamp: null,
        finalized_at: null,
      }),
    );
    const r = await runCtx(["finalize", "--session", "s-next"], { env, cwd: project });
    const md = readFileSync(r.stdout.trim(), "utf8");
    expect(md).toContain(`- Sessions (2, oldest first): ${SID} → s-next`);
    expect(md).toContain(`- Previous summary: \`${first}\``);
  });

  test("an unknown session or an unreadable transcript is an error, and writes nothing", async () => {
    const unknown = await runCtx(["finalize", "--session", "nope"], { env, cwd: project });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no state for session nope");
    expect(unknown.stderr).toContain("hint:");
    const missing = await runCtx(["finalize", "--transcript", join(t.dir, "missing.jsonl")], { env, cwd: project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read the transcript");
    expect(existsSync(sessions())).toBe(false);
  });

  test("a rerun keeps the team the first run recorded", async () => {
    await runCtx(["track"], { stdin: hook("SessionStart", { source: "startup" }), env });
    const first = await runCtx(["finalize", "--session", SID], { env, cwd: project });
    const { CTX_TEAM: _team, ...noTeam } = env;
    const again = await runCtx(["finalize", "--session", SID], { env: noTeam, cwd: project });
    expect(again.stdout).toBe(first.stdout);
    expect(readFileSync(again.stdout.trim(), "utf8")).toContain("- Team: team-5");
  });

  test("from a transcript alone, the peak and the model survive a compaction", async () => {
    const compacted = join(import.meta.dir, "..", "fixtures", "transcripts", "interactive-compact-session.jsonl");
    const r = await runCtx(["finalize", "--transcript", compacted], { env, cwd: project });
    expect(r.code).toBe(0);
    // 151,050 tokens before /compact on a 200k window: peak 76 %; the model is the session's.
    expect(readFileSync(r.stdout.trim(), "utf8")).toMatch(
      /peak 76%, 1 compaction: 1 manual\), model claude-sonnet-4-5/,
    );
  });

  test("without a session says what to pass and exits 2", async () => {
    const r = await runCtx(["finalize"], { env, cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--session");
  });

  test("SessionEnd after auto-pause finalizes in the background and the hook returns at once", async () => {
    await runCtx(["track"], { stdin: hook("SessionStart"), env });
    const r = await runCtx(["track"], {
      stdin: hook("SessionEnd", { reason: "other" }),
      env: { ...env, CTX_DEBUG: "1" },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("finalize: started in the background"); // detached: the hook did not run it
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !existsSync(join(sessions(), "LATEST-SESSION.txt"))) await Bun.sleep(50);
    expect(readdirSync(sessions()).some((n) => n.startsWith("summary-task-42-"))).toBe(true);
  });
});
