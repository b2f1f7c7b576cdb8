import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
