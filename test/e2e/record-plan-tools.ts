/**
 * Probes where the newest Claude Code (2.1.332) can keep a plan, and re-records
 * test/fixtures/plan-tools/ (run by hand, not part of the suite; docs/plan-tools.md):
 *
 *   ./node_modules/.bin/bun test/e2e/record-plan-tools.ts
 *
 * Runs the real client offline against the fake API, headless (`-p`) and interactive (tmux), with no
 * `--model` (its default model) and with variations, and prints per run: the model, the first main
 * request's tools, the deferred tools the client lists to the model, and what a direct `TaskCreate`
 * call answered. Each run has its own fake API, so every script starts at its first turn. The two
 * headless default/allow transcripts are kept, reduced to the lines ctx reads (`shape.system` emptied,
 * `shape.tools` reduced to names, temp paths replaced by /tmp/ctx-fixture).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runChild } from "../../src/io/process/child.ts";
import { CLIENTS, makeSandbox, REPO_ROOT, type Sandbox } from "./claude.ts";
import { lastToolResults, type LoggedRequest, startFakeApi, type Turn } from "./fake-api.ts";
import { startTmux } from "./tmux.ts";

const OUT = join(REPO_ROOT, "test", "fixtures", "plan-tools");
const BIN = CLIENTS.newest.bin;

/** The fake model: a direct TaskCreate, then a numbered plan in its reply. */
function script(_req: LoggedRequest, i: number): Turn {
  if (i === 0)
    return {
      content: [{ type: "tool_use", name: "TaskCreate", input: { subject: "s", description: "d", activeForm: "a" } }],
    };
  return { content: [{ type: "text", text: "Plan:\n1. parse\n2. test" }] };
}

interface Probe {
  name: string;
  args: string[];
  env?: Record<string, string>;
  interactive?: boolean;
  keep?: string;
}

const PROBES: Probe[] = [
  { name: "headless, default model", args: [], keep: "2.1.332-headless-default.jsonl" },
  {
    name: "headless, --allowedTools TaskCreate",
    args: ["--allowedTools", "TaskCreate"],
    keep: "2.1.332-headless-allow.jsonl",
  },
  { name: "headless, CLAUDE_CODE_ENABLE_TODO_TOOLS=1", args: [], env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
  { name: "headless, --model claude-sonnet-4-5", args: ["--model", "claude-sonnet-4-5"] },
  { name: "interactive, default model", args: [], interactive: true },
];

mkdirSync(OUT, { recursive: true });
for (const p of PROBES) {
  const api = await startFakeApi(script);
  const sb = await makeSandbox({ apiUrl: api.url, extraEnv: p.env });
  try {
    if (p.interactive) {
      const pane = await startTmux({ dir: sb.tmp, command: [BIN, ...p.args], env: sb.env, cwd: sb.project });
      await pane.waitFor(/for shortcuts|❯/, 40_000);
      await pane.sendText("plan it");
      for (let k = 0; k < 120 && api.mainRequests().length < 2; k++) await Bun.sleep(500);
      await Bun.sleep(1000);
      await pane.kill();
    } else {
      await runChild([BIN, "-p", "plan it", "--output-format", "json", ...p.args], {
        cwd: sb.project,
        env: sb.env,
        timeoutMs: 90_000,
      });
    }
    const first = api.mainRequests()[0]?.body;
    const all = JSON.stringify(first ?? {});
    const at = all.indexOf("The following deferred tools are now available");
    const deferred =
      at < 0
        ? ""
        : all
            .slice(at, at + 800)
            .split("\\n")
            .slice(1)
            .join(" ")
            .split(" Available")[0];
    const answer = api.mainRequests()[1] ? lastToolResults(api.mainRequests()[1]!)[0]?.text : undefined;
    console.log(
      `## ${p.name}\nmodel: ${first?.model}\ntools: ${(first?.tools ?? []).map((t: { name: string }) => t.name).join(", ")}`,
    );
    console.log(`deferred: ${deferred}\nTaskCreate answered: ${answer}\n`);
    if (p.keep) writeFileSync(join(OUT, p.keep), reduced(sb));
  } finally {
    await api.stop();
    sb.cleanup();
  }
}

/** The session's transcript, reduced to the lines ctx reads, with stable paths. */
function reduced(sb: Sandbox): string {
  const dir = join(sb.home, ".claude", "projects");
  const lines: string[] = [];
  for (const d of readdirSync(dir))
    for (const f of readdirSync(join(dir, d)).filter((n) => n.endsWith(".jsonl")))
      for (const line of readFileSync(join(dir, d, f), "utf8")
        .split("\n")
        .filter(Boolean)) {
        const e = JSON.parse(line);
        if (e.type === "api-request-shape") {
          e.shape.system = [];
          e.shape.tools = e.shape.tools.map((t: { name: string }) => ({ name: t.name }));
          lines.push(JSON.stringify(e));
        } else if (
          ["queue-operation", "user", "assistant", "last-prompt"].includes(e.type) ||
          e.attachment?.type === "deferred_tools_delta"
        )
          lines.push(line);
      }
  return `${lines.join("\n").split(sb.root).join("/tmp/ctx-fixture")}\n`;
}
