import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";
import { writeOwnSummary } from "../helpers/written.ts";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let project: string;
let root: string;
beforeEach(() => {
  t = tempDir();
  project = join(t.dir, "proj");
  root = join(project, ".ctx");
  mkdirSync(project, { recursive: true });
  env = isolatedEnv(t.dir, { CLAUDE_PROJECT_DIR: project });
  mkdirSync(env.TMPDIR!, { recursive: true });
});
afterEach(() => t.cleanup());

function summary(name: string, text: string): string {
  mkdirSync(join(root, "sessions"), { recursive: true });
  const p = join(root, "sessions", name);
  writeOwnSummary(env, p, text);
  return p;
}
async function hook(sid: string, source: string | undefined, extra: Record<string, unknown> = {}, stdin?: string) {
  const input =
    stdin ??
    JSON.stringify({
      session_id: sid,
      transcript_path: "/x.jsonl",
      cwd: project,
      hook_event_name: "SessionStart",
      source,
      model: "claude-sonnet-4-5",
      ...extra,
    });
  const r = await runCtx(["resume", "--hook"], { env, stdin: input, cwd: project });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
  return { ...r, json: r.stdout === "" ? undefined : JSON.parse(r.stdout) };
}
const ctxOf = (out: any): string => out.hookSpecificOutput.additionalContext;

describe("ctx resume --hook", () => {
  test("after /clear injects the newest summary once, then never again (loop guard)", async () => {
    summary("summary-t-20250101-100000.md", "OLDER BODY");
    summary("summary-t-20250101-110000.md", "NEWER BODY");
    const first = await hook("s2", "clear");
    expect(first.json.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(ctxOf(first.json)).toContain("NEWER BODY");
    expect(ctxOf(first.json)).not.toContain("OLDER BODY");
    expect(ctxOf(first.json)).toContain("continue the remaining work");
    expect((await hook("s3", "clear")).stdout).toBe("");
    expect((await hook("s2", "compact")).stdout).toBe("");
    const ledger = JSON.parse(readFileSync(join(root, "state", "resume-ledger.json"), "utf8"));
    expect(ledger).toEqual({
      version: 1,
      consumed: {
        "summary-t-20250101-110000.md": { session_id: "s2", via: "clear", at: expect.any(String), task_id: "t" },
      },
    });
  });

  test("after a compaction injects a summary written for it", async () => {
    summary("summary-t-20250101-100000.md", "COMPACT BODY");
    expect(ctxOf((await hook("s1", "compact")).json)).toContain("COMPACT BODY");
  });

  test("on startup only a one-line hint, consuming nothing", async () => {
    summary("summary-t-20250101-100000.md", "SECRET BODY");
    const r = await hook("s1", "startup");
    expect(ctxOf(r.json)).toContain("ctx resume --latest");
    expect(ctxOf(r.json)).not.toContain("SECRET BODY");
    expect(ctxOf(r.json)).not.toContain("\n");
    expect(existsSync(join(root, "state", "resume-ledger.json"))).toBe(false);
    expect(ctxOf((await hook("s2", "clear")).json)).toContain("SECRET BODY");
  });

  test("after /clear injects the summary a respawn cycle left pending, and consumes it; startup does not", async () => {
    const p = summary("summary-t-20250101-100000.md", "PENDING BODY");
    summary("summary-t-20250101-110000.md", "NEWER BODY");
    mkdirSync(join(root, "state"), { recursive: true });
    const pendingFile = join(root, "state", "respawn-pending.json");
    writeFileSync(
      pendingFile,
      JSON.stringify({ version: 1, summary_path: p, created_at: new Date().toISOString(), consumed_by: null }),
    );
    expect((await hook("s4", "startup")).stdout).not.toContain("PENDING BODY");
    const r = await hook("s5", "clear");
    expect(ctxOf(r.json)).toContain("PENDING BODY");
    const pending = JSON.parse(readFileSync(pendingFile, "utf8"));
    expect(pending).toMatchObject({ version: 1, summary_path: p, consumed_by: "s5" });
    expect(typeof pending.consumed_at).toBe("string");
    expect(ctxOf((await hook("s6", "startup")).json)).toContain("summary-t-20250101-110000.md");
  });

  test("a project without summaries: no output, no .ctx directory created", async () => {
    expect((await hook("s1", "clear")).stdout).toBe("");
    expect((await hook("s1", "startup")).stdout).toBe("");
    expect(existsSync(root)).toBe(false);
  });

  test.each([
    ["garbage stdin", "not json {"],
    [
      "an unsafe session id",
      JSON.stringify({ session_id: "../../etc", hook_event_name: "SessionStart", source: "clear" }),
    ],
    ["another event", JSON.stringify({ session_id: "s1", hook_event_name: "PostToolUse", source: "clear" })],
    ["empty stdin", ""],
  ])("%s: exit 0, nothing printed, nothing consumed", async (_n, stdin) => {
    summary("summary-t-20250101-100000.md", "BODY");
    const r = await hook("x", undefined, {}, stdin);
    expect(r.stdout).toBe("");
    expect(existsSync(join(root, "state", "resume-ledger.json"))).toBe(false);
  });

  test("a state directory that cannot be written: exit 0, nothing injected (no loop guard, no injection)", async () => {
    summary("summary-t-20250101-100000.md", "BODY");
    writeFileSync(join(root, "state"), "a file where the state directory should be"); // fails even for root
    const r = await runCtx(["resume", "--hook"], {
      env: { ...env, CTX_DEBUG: "1" },
      cwd: project,
      stdin: JSON.stringify({ session_id: "s1", hook_event_name: "SessionStart", source: "clear", cwd: project }),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("nothing injected");
  });

  test("a corrupt ledger is set aside and treated as empty", async () => {
    summary("summary-t-20250101-100000.md", "BODY");
    mkdirSync(join(root, "state"), { recursive: true });
    writeFileSync(join(root, "state", "resume-ledger.json"), "{ half");
    expect(ctxOf((await hook("s1", "clear")).json)).toContain("BODY");
    expect(readdirSync(join(root, "state")).some((n) => n.startsWith("resume-ledger.json.corrupt-"))).toBe(true);
  });

  test("a symlinked summary is not followed", async () => {
    const outside = join(t.dir, "outside.md");
    writeFileSync(outside, "OUTSIDE");
    mkdirSync(join(root, "sessions"), { recursive: true });
    symlinkSync(outside, join(root, "sessions", "summary-t-20250101-100000.md"));
    expect((await hook("s1", "clear")).stdout).toBe("");
  });

  test("a startup with a summary waits for nothing (its speed is bench/'s to measure)", async () => {
    summary("summary-t-20250101-100000.md", "BODY");
    const r = await runCtx(["resume", "--hook"], {
      env,
      cwd: project,
      countWaits: true,
      stdin: JSON.stringify({
        session_id: "s0",
        transcript_path: "/x.jsonl",
        cwd: project,
        hook_event_name: "SessionStart",
        source: "startup",
      }),
    });
    expect({ code: r.code, stderr: r.stderr, slept: r.waited!.sleptMs }).toEqual({ code: 0, stderr: "", slept: 0 });
  });
});

describe("ctx resume --hook through main's hook path", () => {
  test("an internal error exits 0, prints nothing and lands in errors.log", async () => {
    const { main } = await import("../../src/main.ts");
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["resume", "--hook"], {
      env,
      now: () => Date.parse("2026-01-02T03:04:05Z"),
      cwd: project,
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
      readStdin: () => Promise.reject(new Error("stdin exploded")),
    });
    expect(code).toBe(0);
    expect(out).toEqual([]);
    expect(err).toEqual([]);
    const log = readFileSync(join(env.XDG_STATE_HOME!, "ctx", "errors.log"), "utf8");
    expect(log).toBe("2026-01-02T03:04:05.000Z ctx resume: Error: stdin exploded\n");
  });

  test("a usage error of the typed command still exits 2", async () => {
    const r = await runCtx(["resume", "--bogus"], { env, cwd: project });
    expect(r.code).toBe(2);
    expect(existsSync(join(env.XDG_STATE_HOME!, "ctx", "errors.log"))).toBe(false);
  });
});
