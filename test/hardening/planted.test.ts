/**
 * Files a cloned repository can plant under `.ctx/`: paths inside state files
 * that point elsewhere, hand-overs stamped in the future. ctx reads a path out
 * of a state file only when it is in the directory it belongs to.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInproc } from "./inproc.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";
import { writeOwnSummary } from "../helpers/written.ts";

let sb: Sandbox;
let ctxDir: string;
let secret: string;
const SECRET_TEXT = "# Summary\n- TOP-SECRET-CREDENTIAL aws_secret_access_key=AKIA\n";
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" });
  ctxDir = join(sb.project, ".ctx");
  mkdirSync(join(ctxDir, "state"), { recursive: true });
  mkdirSync(join(ctxDir, "sessions"), { recursive: true });
  secret = join(sb.dir, "home", "credentials.md");
  writeFileSync(secret, SECRET_TEXT);
});
afterEach(() => sb.cleanup());

const pending = (summaryPath: string, createdAt: string) =>
  writeFileSync(
    join(ctxDir, "state", "respawn-pending.json"),
    JSON.stringify({ version: 1, summary_path: summaryPath, created_at: createdAt, consumed_by: null }),
  );

async function sessionStart(source: string, sid = "s-new"): Promise<string> {
  const stdin = Buffer.from(
    JSON.stringify({ session_id: sid, cwd: sb.project, hook_event_name: "SessionStart", source }),
  );
  const r = await runInproc(["resume", "--hook"], { env: sb.env, cwd: sb.project, stdin });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return r.stdout;
}

describe("resume --hook: respawn-pending.json", () => {
  test.each([
    ["an absolute path elsewhere", () => secret],
    ["a path that climbs out of sessions/", () => join(ctxDir, "sessions", "..", "..", "..", "home", "credentials.md")],
    [
      "a summary-named symlink in sessions/",
      () => {
        symlinkSync(secret, join(ctxDir, "sessions", "summary-t-20250101-000000.md"));
        return join(ctxDir, "sessions", "summary-t-20250101-000000.md");
      },
    ],
    [
      "a file in sessions/ that is not a summary",
      () => {
        writeFileSync(join(ctxDir, "sessions", "notes.md"), SECRET_TEXT);
        return join(ctxDir, "sessions", "notes.md");
      },
    ],
  ])("%s is never injected, on any source", async (_name, where) => {
    const path = where();
    for (const source of ["startup", "clear", "compact", "resume"]) {
      pending(path, new Date().toISOString());
      expect(await sessionStart(source)).not.toContain("TOP-SECRET");
    }
  });

  test("a sessions/ directory that is a symlink: its summaries are not read", async () => {
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "summary-t-20250101-000000.md"), SECRET_TEXT);
    const real = join(ctxDir, "sessions");
    Bun.spawnSync(["rm", "-rf", real]);
    symlinkSync(elsewhere, real);
    pending(join(real, "summary-t-20250101-000000.md"), new Date().toISOString());
    for (const source of ["startup", "clear"]) expect(await sessionStart(source)).not.toContain("TOP-SECRET");
  });

  test("a created_at in the future is stale; the same hand-over stamped now is injected (the control)", async () => {
    const path = join(ctxDir, "sessions", "summary-t-20250101-000000.md");
    writeOwnSummary(sb.env, path, "# Summary\n- the real next step\n");
    pending(path, "2999-01-01T00:00:00.000Z");
    expect(await sessionStart("startup")).not.toContain("the real next step");
    pending(path, new Date().toISOString());
    const out = await sessionStart("clear", "s-other");
    expect(out).toContain("the real next step");
    expect(JSON.parse(readFileSync(join(ctxDir, "state", "respawn-pending.json"), "utf8")).consumed_by).toBe("s-other");
  });
});

describe("track: a pending compaction path in a planted state", () => {
  test("points outside <root>/events: the file there is never rewritten", async () => {
    const victim = join(sb.dir, "victim.json");
    const body = `${JSON.stringify({ version: 1, session_id: "x", tokens_after: null })}\n`;
    writeFileSync(victim, body);
    const sid = "s-comp";
    const hook = (event: string) =>
      Buffer.from(
        JSON.stringify({
          session_id: sid,
          cwd: sb.project,
          hook_event_name: event,
          transcript_path: sb.transcript,
          tool_name: "Bash",
          tool_input: {},
          tool_response: {},
        }),
      );
    expect((await runInproc(["track"], { env: sb.env, cwd: sb.project, stdin: hook("PostToolUse") })).code).toBe(0);
    const statePath = join(ctxDir, "state", "sessions", `${sid}.json`);
    const state = JSON.parse(readFileSync(statePath, "utf8"));
    // As if a compaction had started, with the event path pointing at the victim; the cursor rewound so usage is seen again.
    writeFileSync(
      statePath,
      JSON.stringify({ ...state, pending_compaction: { path: victim, tokens_before: 190000 }, cursor: null }),
    );
    expect((await runInproc(["track"], { env: sb.env, cwd: sb.project, stdin: hook("PostToolUse") })).code).toBe(0);
    const after = JSON.parse(readFileSync(statePath, "utf8"));
    expect(after.pending_compaction).toBeNull(); // the step did complete the compaction…
    expect(readFileSync(victim, "utf8")).toBe(body); // …but wrote nothing outside <root>/events
  });
});

describe("finalize: names built from a planted state", () => {
  test("a task_id that climbs out of sessions/ never makes finalize write elsewhere", async () => {
    const sid = "s-task";
    const dir = join(ctxDir, "state", "sessions");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${sid}.json`),
      JSON.stringify({
        version: 1,
        session_id: sid,
        project: sb.project,
        task_id: "../../../escaped",
        finalized_stamp: "../x",
      }),
    );
    const r = await runInproc(["finalize", "--session", sid, "--transcript", sb.transcript], {
      env: sb.env,
      cwd: sb.project,
      stdin: new Uint8Array(),
    });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readdirSync(sb.dir).filter((n) => n.includes("escaped"))).toEqual([]);
    const names = readdirSync(join(ctxDir, "sessions"));
    expect(names.some((n) => /^summary-[A-Za-z0-9_.-]+-\d{8}-\d{6}\.md$/.test(n))).toBe(true);
    expect(names.filter((n) => n.includes("escaped") || n.includes(".."))).toEqual([]);
  });
});
