/**
 * What the real client does with `CLAUDE_CODE_TASK_LIST_ID` across `/clear`
 * (issue 10): observed, not assumed. The interactive client creates two tasks
 * and completes one, then `/clear` starts a new session in the same process,
 * which creates one more task. Recorded in test/fixtures/README.md.
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, type Sandbox } from "./claude.ts";
import { allText, lastToolResults, lastUserText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
import { startClient } from "./client-pane.ts";
import type { TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
  await tmux?.kill().catch(() => {});
  await api?.stop();
  sandbox?.cleanup();
  tmux = api = sandbox = undefined;
});

const tool = (name: string, input: Record<string, unknown>): Turn => ({
  content: [{ type: "tool_use", name, input }],
  usage: { input_tokens: 100, output_tokens: 10 },
});
const text = (t: string): Turn => ({ content: [{ type: "text", text: t }], usage: { input_tokens: 100 } });

/** Starts the client (with `env`), creates two tasks, completes #1, runs /clear and creates one more. */
async function createClearCreate(env: Record<string, string>): Promise<string[]> {
  api = await startFakeApi((req): Turn | undefined => {
    const user = lastUserText(req);
    const results = lastToolResults(req)
      .map((r) => r.text)
      .join("\n");
    if (!results && user.includes("FIRST-PROMPT"))
      return tool("TaskCreate", { subject: "Write the parser", description: "parse", activeForm: "Parsing" });
    if (!results && user.includes("SECOND-PROMPT"))
      return tool("TaskCreate", { subject: "Write the docs", description: "docs", activeForm: "Writing docs" });
    if (/Task #1 created/.test(results) && !allText(req).includes("SECOND-PROMPT"))
      return tool("TaskCreate", { subject: "Write the exporter", description: "export", activeForm: "Exporting" });
    if (/Task #2 created/.test(results)) return tool("TaskUpdate", { taskId: "1", status: "completed" });
    if (results) return text(`Tool said: ${results.slice(0, 80)}`);
    return text("ok.");
  });
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: env });
  tmux = await startClient(sandbox);
  await tmux.sendText("FIRST-PROMPT: plan the work");
  await tmux.waitFor(/Tool said:/, 40_000);
  await tmux.sendText("/clear");
  await Bun.sleep(1500);
  await tmux.sendText("SECOND-PROMPT: go on");
  await tmux.waitFor(/Tool said:/, 40_000);
  return api
    .mainRequests()
    .flatMap((r) => lastToolResults(r).map((t) => t.text))
    .filter((t) => t.includes("Write the docs"));
}

/** The tasks stored in `~/.claude/tasks/<list>/`, as `id:status:subject`. */
function listed(list: string): string[] {
  const dir = join(sandbox!.home, ".claude", "tasks", list);
  return readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(dir, n), "utf8")))
    .map((t) => `${t.id}:${t.status}:${t.subject}`);
}

test("CLAUDE_CODE_TASK_LIST_ID: the list lives in ~/.claude/tasks/<id>/ and survives /clear", async () => {
  const LIST = "chain-tasklist1";
  const created = await createClearCreate({ CLAUDE_CODE_TASK_LIST_ID: LIST });
  // Observed with 2.1.197 and 2.1.328: the list is kept across /clear (the new task is #3, the old ones remain).
  expect(created[0]).toContain("Task #3 created");
  expect(listed(LIST)).toEqual([
    "1:completed:Write the parser",
    "2:pending:Write the exporter",
    "3:pending:Write the docs",
  ]);
  // The model is not told about the kept tasks: only the summary (or a TaskList call) shows them.
  const second = api!.mainRequests().find((r) => lastUserText(r).includes("SECOND-PROMPT"))!;
  expect(allText(second)).not.toContain("Write the exporter");
  // No session-keyed list is used while the variable is set.
  expect(readdirSync(join(sandbox!.home, ".claude", "tasks"))).toEqual([LIST]);
}, 120_000);

test("without CLAUDE_CODE_TASK_LIST_ID, /clear starts a new, empty list (keyed by the new session id)", async () => {
  const created = await createClearCreate({});
  expect(created[0]).toContain("Task #1 created");
  const lists = readdirSync(join(sandbox!.home, ".claude", "tasks"));
  expect(lists).toHaveLength(2);
  const all = lists.map((l) => listed(l).join(",")).sort();
  expect(all).toEqual(["1:completed:Write the parser,2:pending:Write the exporter", "1:pending:Write the docs"]);
}, 120_000);
