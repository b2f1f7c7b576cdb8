/**
 * `ctx monitor` on tool calls run inside a Claude Code subagent (hook input with
 * `agent_id`): judged by the subagent's own transcript and window, debounced per
 * agent, never by the parent's bridge or transcript, and without waiting on the
 * parent's file. Uses the recorded fixture `transcripts/subagent-session*`.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { assistantLine } from "../helpers/transcript.ts";
import { runInproc } from "../hardening/inproc.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "transcripts");
const AGENT = "ac32422becd6dd6c3";
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
let parent: string;
let agentFile: string;

beforeEach(() => {
  ({ t, env, project } = projectSandbox());
  // The client's layout: <dir>/<session>.jsonl and <dir>/<session>/subagents/agent-<id>.jsonl.
  parent = join(t.dir, "s1.jsonl");
  cpSync(join(FIXTURES, "subagent-session.jsonl"), parent);
  cpSync(join(FIXTURES, "subagent-session"), join(t.dir, "s1"), { recursive: true });
  agentFile = join(t.dir, "s1", "subagents", `agent-${AGENT}.jsonl`);
  // The parent is far above CRITICAL (95 % of 200k), both in its transcript and in a fresh bridge.
  appendFileSync(parent, `${assistantLine(190_000)}\n`);
  writeFileSync(
    join(env.TMPDIR!, "claude-ctx-s1.json"),
    JSON.stringify({
      session_id: "s1",
      used_pct: 95,
      remaining_percentage: 5,
      timestamp: Math.floor(Date.now() / 1000),
      used_tokens: 190_000,
      context_window_size: 200_000,
    }),
  );
});
afterEach(() => t.cleanup());

function hook(over: Record<string, unknown> = {}): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({
      session_id: "s1",
      transcript_path: parent,
      cwd: project,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo from-subagent" },
      tool_response: { stdout: "from-subagent" },
      tool_use_id: "toolu_only_in_the_subagent_file",
      agent_id: AGENT,
      agent_type: "general-purpose",
      ...over,
    }),
  );
}
async function monitor(input: Uint8Array) {
  const r = await runInproc(["monitor"], { env, cwd: project, stdin: input });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
  return { out: r.stdout === "" ? undefined : JSON.parse(r.stdout), sleptMs: r.sleptMs };
}
const sideLine = (used: number) => assistantLine(used, { isSidechain: true, agentId: AGENT });

describe("ctx monitor in a subagent", () => {
  test("a subagent with a small context gets nothing, though the parent is above CRITICAL, and no wait", async () => {
    const { out, sleptMs } = await monitor(hook());
    expect(out).toBeUndefined();
    // monitor.transcript_wait_ms is 300: the parent's file never gets this tool_use_id, so no wait at all.
    expect(sleptMs).toBe(0); // as ctx counts its sleeps
    // The parent's own tool call still gets the parent's CRITICAL.
    const main = await monitor(hook({ agent_id: undefined, agent_type: undefined, tool_use_id: undefined }));
    expect(main.out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL");
  });

  test("the subagent's own usage decides: WARNING, debounced per agent, then CRITICAL", async () => {
    appendFileSync(agentFile, `${sideLine(140_000)}\n`);
    const first = await monitor(hook());
    expect(first.out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT WARNING");
    expect(first.out.hookSpecificOutput.additionalContext).toContain("70% of the context window is used");
    expect((await monitor(hook())).out).toBeUndefined(); // debounced (5 calls by default)
    appendFileSync(agentFile, `${sideLine(160_000)}\n`);
    const crit = await monitor(hook());
    expect(crit.out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL");
    const states = readdirSync(join(project, ".ctx", "state", "monitor"));
    expect(states).toContain(`s1.agent-${AGENT}.json`);
    // A subagent's CRITICAL is its own: no finalize of the parent session starts.
    expect(existsSync(join(project, ".ctx", "state", "monitor", "s1.finalize"))).toBe(false);
  });

  test("another agent of the same session has its own debounce", async () => {
    appendFileSync(agentFile, `${sideLine(140_000)}\n`);
    const other = "b0b0b0b0b0b0b0b0";
    cpSync(agentFile, join(t.dir, "s1", "subagents", `agent-${other}.jsonl`));
    expect((await monitor(hook())).out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT WARNING");
    expect((await monitor(hook({ agent_id: other }))).out.hookSpecificOutput.additionalContext).toStartWith(
      "CONTEXT WARNING",
    );
  });

  test("an unsafe or unknown agent_id is judged by nothing (never by the parent)", async () => {
    for (const agent_id of ["../../etc", "a/b", "", 42, "x".repeat(200), "no-such-agent"])
      expect((await monitor(hook({ agent_id }))).out).toBeUndefined();
  });
});
