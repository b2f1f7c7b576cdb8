/**
 * Corrupt state and config files, through the compiled binary: each hook
 * recovers (starts that state over, or uses the defaults), and the bad file is
 * kept for inspection: a state file as `<file>.corrupt-<ms>` (docs/state.md),
 * a config file left exactly as the user wrote it, reported under CTX_DEBUG.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";
import { recordWritten } from "../../src/io/written.ts";

const SID = "corrupt-session";
let sb: Sandbox;
let root: string;
beforeEach(() => {
  sb = makeSandbox({
    CTX_TRACK_FINALIZE_ON_END: "never",
    CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0",
    CTX_TRACK_TRANSCRIPT_WAIT_MS: "0",
  });
  root = join(sb.project, ".ctx");
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: 66,
      remaining_percentage: 34,
      timestamp: Date.now() / 1000,
      used_tokens: 132000,
      context_window_size: 200000,
    }),
  );
});
afterEach(() => sb.cleanup());

const hook = (event = "PostToolUse", extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: SID,
    transcript_path: sb.transcript,
    cwd: sb.project,
    hook_event_name: event,
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "" },
    ...extra,
  });

function plant(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The file parses now, and exactly one `<file>.corrupt-<ms>` beside it holds the bad content. */
function expectQuarantined(path: string, bad: string): void {
  expect(() => JSON.parse(readFileSync(path, "utf8"))).not.toThrow();
  const base = path.split("/").pop()!;
  const aside = readdirSync(dirname(path)).filter((n) => n.startsWith(`${base}.corrupt-`) && /\.corrupt-\d+$/.test(n));
  expect(aside.length).toBe(1);
  expect(readFileSync(join(dirname(path), aside[0]!), "utf8")).toBe(bad);
}

async function ok(args: string[], stdin: string, env = sb.env) {
  const r = await runCtx(args, { stdin, env, cwd: sb.project });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return r;
}

describe("corrupt state files are kept aside and recovered from", () => {
  test("the monitor's debounce state: the warning fires afresh", async () => {
    const path = join(root, "state", "monitor", `${SID}.json`);
    plant(path, '{"version":1,"calls_since":');
    expect((await ok(["monitor"], hook())).stdout).toContain("CONTEXT WARNING");
    expectQuarantined(path, '{"version":1,"calls_since":');
    expect(JSON.parse(readFileSync(path, "utf8")).fired).toBe(1);
  });

  test("track's session state, the token ledger and the per-user index entry", async () => {
    const state = join(root, "state", "sessions", `${SID}.json`);
    const ledger = join(root, "token-ledger.json");
    const index = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions", `${SID}.json`);
    plant(state, "\u0000\u0000\u0000");
    plant(ledger, '{"version":1,"tasks":{"t":');
    plant(index, "[");
    await ok(["track"], hook());
    expectQuarantined(state, "\u0000\u0000\u0000");
    expectQuarantined(ledger, '{"version":1,"tasks":{"t":');
    expectQuarantined(index, "[");
    expect(JSON.parse(readFileSync(state, "utf8")).tool_calls).toBe(1);
    expect(Object.keys(JSON.parse(readFileSync(ledger, "utf8")).tasks)).toEqual(["chain-corrupts"]); // the chain's task id
  });

  test("the resume ledger: the summary is still injected after /clear", async () => {
    const ledger = join(root, "state", "resume-ledger.json");
    plant(ledger, "{not json");
    plant(join(root, "sessions", "summary-t-20990101-000000.md"), "# Summary\n- the next step\n");
    recordWritten(
      sb.env,
      "# Summary\n- the next step\n",
      "summary",
      join(root, "sessions", "summary-t-20990101-000000.md"),
    ); // as finalize records the summaries it writes
    const r = await ok(["resume", "--hook"], hook("SessionStart", { source: "clear" }));
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain("the next step");
    expectQuarantined(ledger, "{not json");
  });
});

describe("corrupt config files", () => {
  test("invalid user and project config.yaml: hooks run on the defaults, the files stay as written, CTX_DEBUG says why", async () => {
    const user = join(sb.env.XDG_CONFIG_HOME!, "ctx", "config.yaml");
    const project = join(root, "config.yaml");
    const badUser = "monitor:\n  warning_remaining: [unclosed\n\t- : :\n";
    const badProject = "\u0000\u00ff{{{";
    plant(user, badUser);
    plant(project, badProject);
    expect((await ok(["monitor"], hook())).stdout).toContain("CONTEXT WARNING");
    expect(
      (
        await ok(
          ["statusline"],
          JSON.stringify({
            session_id: SID,
            cwd: sb.project,
            workspace: { project_dir: sb.project },
            model: { display_name: "Sonnet" },
            context_window: { used_percentage: 66, context_window_size: 200000 },
          }),
        )
      ).stdout,
    ).toContain("66%");
    await ok(["track"], hook());
    const loud = await runCtx(["monitor"], { stdin: hook(), env: { ...sb.env, CTX_DEBUG: "1" }, cwd: sb.project });
    expect(loud.code).toBe(0);
    expect(loud.stderr).toContain("config");
    expect(readFileSync(user, "utf8")).toBe(badUser);
    expect(readFileSync(project, "utf8")).toBe(badProject);
  });
});
