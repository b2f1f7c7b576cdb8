/**
 * Re-records the real-client fixtures in test/fixtures/ (run by hand, not part of the suite):
 *
 *   ./node_modules/.bin/bun test/e2e/record-fixtures.ts
 *
 * Drives the real Claude Code client (node_modules/.bin/claude) against the fake API in
 * sandboxes, with every hook and the statusLine pointing at hook-recorder.ts, then writes
 * sanitized transcripts, hook payloads, statusLine payloads and observations.json.
 * Temp paths are replaced by /tmp/ctx-fixture so the files are stable.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { startFakeApi, contentText, type Block, type FakeApi, type LoggedRequest, type Turn } from "./fake-api.ts";
import { makeSandbox, runClaudeP, findTranscripts, CLAUDE_BIN, REPO_ROOT, TEST_MODEL, type Sandbox } from "./claude.ts";
import { startTmux } from "./tmux.ts";

const OUT = join(REPO_ROOT, "test", "fixtures");
const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const RECORDER = join(REPO_ROOT, "test", "e2e", "hook-recorder.ts");
const PLACEHOLDER = "/tmp/ctx-fixture";
const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "Notification",
  "SessionEnd",
];

interface Rec {
  label: string;
  at: number;
  stdin: any;
  transcriptAtCall?: string | null;
  flushWaitMs?: number | null;
}

const text = (t: string): Block => ({ type: "text", text: t });
const tool = (name: string, input: Record<string, unknown>): Block => ({ type: "tool_use", name, input });
/** Usage totalling `total` context tokens, mostly cache reads. */
const u = (total: number, out = 120) => ({
  input_tokens: 50,
  cache_creation_input_tokens: 1500,
  cache_read_input_tokens: total - 1550,
  output_tokens: out,
});

/** settings.json recording every hook event (and the statusLine) via hook-recorder.ts. */
function recordingSettings(): object {
  const hooks: Record<string, object[]> = {};
  for (const e of EVENTS) {
    hooks[e] = [
      {
        ...(/Tool/.test(e) ? { matcher: "*" } : {}),
        hooks: [{ type: "command", command: `${BUN} ${RECORDER} ${e} --snapshot` }],
      },
    ];
  }
  return {
    hooks,
    statusLine: { type: "command", command: `${BUN} ${RECORDER} statusLine --print SL-REC`, padding: 0 },
  };
}

async function sandbox(api: FakeApi): Promise<Sandbox> {
  const sb = await makeSandbox({ apiUrl: api.url, settings: recordingSettings() });
  sb.env.E2E_RECORD_DIR = sb.root;
  return sb;
}

function records(sb: Sandbox): Rec[] {
  const p = join(sb.root, "records.jsonl");
  if (!existsSync(p)) return [];
  return readFileSync(p, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
}

/** Replaces sandbox paths (and their dashed project-dir form) with the placeholder. */
function sanitize(s: string, sb: Sandbox): string {
  const dashed = (p: string): string => p.replace(/[/.]/g, "-");
  return s.split(sb.root).join(PLACEHOLDER).split(dashed(sb.root)).join(dashed(PLACEHOLDER));
}

function writeOut(rel: string, content: string): void {
  const p = join(OUT, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
  console.log("wrote", relative(REPO_ROOT, p));
}

/** Copies a session's transcript (and its `<session>/subagents/*` dir) as `transcripts/<name>.jsonl` (+ `<name>/`). */
function copyTranscript(sb: Sandbox, sessionId: string, name: string): void {
  const main = findTranscripts(sb).find((f) => f.endsWith(`/${sessionId}.jsonl`));
  if (!main) throw new Error(`no transcript for ${sessionId}`);
  writeOut(`transcripts/${name}.jsonl`, sanitize(readFileSync(main, "utf8"), sb));
  const companion = join(dirname(main), sessionId);
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else writeOut(`transcripts/${name}/${relative(companion, p)}`, sanitize(readFileSync(p, "utf8"), sb));
    }
  };
  walk(companion);
}

const pretty = (v: unknown, sb: Sandbox): string => `${sanitize(JSON.stringify(v, null, 2), sb)}\n`;

/** For each PostToolUse record: was the requesting assistant line (with usage) already in the transcript? */
function postToolUseFlush(recs: Rec[]): object[] {
  return recs
    .filter((r) => r.label === "PostToolUse" || r.label === "PostToolUseFailure")
    .map((r) => {
      const lines = (r.transcriptAtCall ?? "")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const asst = lines.find(
        (l) => l.type === "assistant" && JSON.stringify(l.message?.content ?? []).includes(r.stdin.tool_use_id),
      );
      const result = lines.find(
        (l) => l.type === "user" && JSON.stringify(l.message?.content ?? []).includes(r.stdin.tool_use_id),
      );
      return {
        event: r.label,
        tool: r.stdin.tool_name,
        flushWaitMs: r.flushWaitMs,
        assistantLineWritten: !!asst,
        assistantHasUsage: !!asst?.message?.usage,
        toolResultWritten: !!result,
        transcriptLines: lines.length,
      };
    });
}

const observations: Record<string, unknown> = { clientVersion: "2.1.197", recordedAt: new Date().toISOString() };
const firstOf = (recs: Rec[], label: string, pred: (r: Rec) => boolean = () => true): Rec | undefined =>
  recs.find((r) => r.label === label && pred(r));

/** (a) TaskCreate/TaskUpdate, Write, Read, Edit, failing Bash; usage rising per turn. */
async function recordToolsSession(): Promise<void> {
  let sbRef: Sandbox | undefined;
  const file = (): string => join(sbRef!.project, "notes.txt");
  const api = await startFakeApi((_req, i) => {
    const turns: Turn[] = [
      {
        content: [
          text("I'll track this."),
          tool("TaskCreate", {
            subject: "Write notes file",
            description: "Create notes.txt and fix its second line",
            activeForm: "Writing notes file",
          }),
        ],
        usage: u(8000),
      },
      { content: [tool("TaskUpdate", { taskId: "1", status: "in_progress" })], usage: u(9500) },
      { content: [tool("Write", { file_path: file(), content: "alpha\nbeta\n" })], usage: u(11000) },
      { content: [tool("Read", { file_path: file() })], usage: u(12500) },
      { content: [tool("Edit", { file_path: file(), old_string: "beta", new_string: "gamma" })], usage: u(14000) },
      {
        content: [tool("Bash", { command: "ls /nonexistent-ctx-fixture", description: "List a missing directory" })],
        usage: u(15500),
      },
      { content: [tool("TaskUpdate", { taskId: "1", status: "completed" })], usage: u(17000) },
      {
        content: [text("Done: notes.txt written and edited; the missing directory does not exist.")],
        usage: u(18500, 40),
      },
    ];
    return turns[i];
  });
  const sb = (sbRef = await sandbox(api));
  try {
    const r = await runClaudeP(sb, "Create notes.txt, fix it, and check the missing directory.");
    if (r.code !== 0) throw new Error(`tools session failed: ${r.stderr}`);
    const sid = r.json.session_id as string;
    copyTranscript(sb, sid, "tools-session");
    const recs = records(sb);
    for (const e of [
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "Stop",
      "SessionEnd",
    ]) {
      const rec = firstOf(recs, e);
      if (rec) writeOut(`hooks/${e}.json`, pretty(rec.stdin, sb));
    }
    const task = firstOf(recs, "PostToolUse", (x) => x.stdin.tool_name === "TaskCreate");
    if (task) writeOut("hooks/PostToolUse-TaskCreate.json", pretty(task.stdin, sb));
    const headlessResult = JSON.parse(sanitize(r.stdout, sb));
    writeOut("headless-result.json", `${JSON.stringify(headlessResult, null, 2)}\n`);
    observations.headless = {
      hookOrder: recs.map((x) => x.label + (x.stdin?.tool_name ? `:${x.stdin.tool_name}` : "")),
      statusLineCalls: recs.filter((x) => x.label === "statusLine").length,
      sessionEnd: firstOf(recs, "SessionEnd")?.stdin,
      postToolUseFlush: postToolUseFlush(recs),
      mainRequests: api.mainRequests().length,
      sideRequests: api.sideRequests().map((q) => contentText(q.body?.messages?.at(-1)?.content).slice(0, 120)),
    };
  } finally {
    await api.stop();
    sb.cleanup();
  }
}

/** (b) A subagent via the Agent tool: parent transcript + `<session>/subagents/agent-*.jsonl`. */
async function recordSubagentSession(): Promise<void> {
  const isSub = (req: LoggedRequest): boolean =>
    contentText(req.body?.messages?.[0]?.content).includes("SUBAGENT-TASK");
  const api = await startFakeApi((req) => {
    const step = (req.body?.messages ?? []).filter((m: any) => m.role === "assistant").length;
    if (isSub(req)) {
      return step === 0
        ? { content: [tool("Bash", { command: "echo from-subagent", description: "Echo" })], usage: u(6000) }
        : { content: [text("Subagent result: the answer is 42.")], usage: u(7000, 30) };
    }
    return step === 0
      ? {
          content: [
            tool("Agent", {
              description: "Find the answer",
              prompt: "SUBAGENT-TASK: run echo and report the answer",
              subagent_type: "general-purpose",
            }),
          ],
          usage: u(20000),
        }
      : { content: [text("The subagent says 42.")], usage: u(21000, 20) };
  });
  const sb = await sandbox(api);
  try {
    const r = await runClaudeP(sb, "Ask a subagent for the answer.", { args: ["--allowedTools", "Agent"] });
    if (r.code !== 0) throw new Error(`subagent session failed: ${r.stderr}`);
    copyTranscript(sb, r.json.session_id, "subagent-session");
    const recs = records(sb);
    for (const e of ["SubagentStart", "SubagentStop"]) {
      const x = firstOf(recs, e);
      if (x) writeOut(`hooks/${e}.json`, pretty(x.stdin, sb));
    }
    const agentPost = firstOf(recs, "PostToolUse", (x) => x.stdin.tool_name === "Agent");
    if (agentPost) writeOut("hooks/PostToolUse-Agent.json", pretty(agentPost.stdin, sb));
    observations.subagent = {
      hookOrder: recs.map(
        (x) =>
          x.label +
          (x.stdin?.tool_name ? `:${x.stdin.tool_name}` : "") +
          (x.stdin?.agent_id ? `@${x.stdin.agent_id}` : ""),
      ),
      files: findTranscripts(sb).map((f) => sanitize(f, sb)),
      subagentToolCount: api.mainRequests().filter(isSub)[0]?.body?.tools?.length,
      parentToolCount: api.mainRequests().find((q) => !isSub(q))?.body?.tools?.length,
    };
  } finally {
    await api.stop();
    sb.cleanup();
  }
}

/** (c) Headless compaction: a run, then `-p /compact --resume`, then one more `--resume` turn. */
async function recordCompactSession(): Promise<void> {
  const api = await startFakeApi({
    main: [
      { content: [tool("Bash", { command: "echo building", description: "Build" })], usage: u(60000) },
      { content: [text("Built.")], usage: u(90000, 30) },
      { content: [text("Continuing after compaction.")], usage: u(6000, 20) },
    ],
    compact: () => ({
      content: [
        text(
          "<analysis>scripted</analysis>\n<summary>\n1. Primary Request and Intent:\n   Build the project.\n2. Pending Tasks:\n   None.\n</summary>",
        ),
      ],
      usage: u(90100, 800),
    }),
  });
  const sb = await sandbox(api);
  try {
    const r1 = await runClaudeP(sb, "Build the project.");
    const sid = r1.json.session_id as string;
    const r2 = await runClaudeP(sb, "/compact", { args: ["--resume", sid] });
    const r3 = await runClaudeP(sb, "Continue.", { args: ["--resume", sid] });
    if (r1.code || r2.code || r3.code) throw new Error(`compact session failed: ${r1.stderr}${r2.stderr}${r3.stderr}`);
    copyTranscript(sb, sid, "compact-session");
    const recs = records(sb);
    for (const e of ["PreCompact", "PostCompact"]) {
      const x = firstOf(recs, e);
      if (x) writeOut(`hooks/${e}.json`, pretty(x.stdin, sb));
    }
    for (const src of ["resume", "compact"]) {
      const x = firstOf(recs, "SessionStart", (y) => y.stdin.source === src);
      if (x) writeOut(`hooks/SessionStart-${src}.json`, pretty(x.stdin, sb));
    }
    const cq = api.compactRequests()[0];
    observations.compact = {
      hookOrderOfCompactRun: recs.map((x) => x.label + (x.stdin?.source ? `(${x.stdin.source})` : "")),
      compactRequest: cq && {
        tools: cq.body?.tools?.length ?? 0,
        stream: cq.body?.stream,
        model: cq.body?.model,
        lastUserTextHead: contentText(cq.body?.messages?.at(-1)?.content).slice(0, 300),
      },
      compactResult: JSON.parse(sanitize(r2.stdout, sb)),
    };
  } finally {
    await api.stop();
    sb.cleanup();
  }
}

/** Interactive in tmux: statusLine payloads before/after replies and after /compact; PostToolUse flush timing. */
async function recordInteractive(): Promise<void> {
  const api = await startFakeApi({
    main: [
      { content: [tool("Bash", { command: "echo interactive", description: "Echo" })], usage: u(120000) },
      // The delay lets the status line run (debounced ~300 ms) at 60 % before the final reply.
      { content: [text("Interactive reply.")], usage: u(151050, 20), delayMs: 2500 },
    ],
  });
  const sb = await sandbox(api);
  const t = await startTmux({
    dir: sb.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL],
    env: sb.env,
    cwd: sb.project,
    width: 200,
    height: 50,
  });
  const sl = (): Rec[] => records(sb).filter((r) => r.label === "statusLine");
  const until = async (cond: () => boolean, ms: number, what: string): Promise<void> => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timeout: ${what}\n${await t.capture()}`);
      await Bun.sleep(200);
    }
  };
  try {
    await t.waitFor(/^❯/m, 30_000);
    await until(() => sl().length > 0, 15_000, "first statusLine");
    writeOut("statusline/before-first-reply.json", pretty(sl()[0]!.stdin, sb));
    await t.sendText("Run the echo.");
    await t.waitFor(/Interactive reply\./, 30_000);
    await until(() => sl().some((r) => r.stdin?.context_window?.used_percentage === 76), 15_000, "statusLine at 76%");
    const mid = sl().find((r) => r.stdin?.context_window?.used_percentage === 60);
    if (mid) writeOut("statusline/after-tool-turn-120k.json", pretty(mid.stdin, sb));
    writeOut(
      "statusline/after-reply-151k.json",
      pretty(sl().find((r) => r.stdin?.context_window?.used_percentage === 76)!.stdin, sb),
    );
    const before = sl().length;
    await t.sendText("/compact");
    await until(() => api.compactRequests().length > 0, 30_000, "compact request");
    await t.waitFor(/Compacted/, 30_000);
    await until(() => sl().length > before, 15_000, "statusLine after compact");
    await Bun.sleep(1500);
    writeOut("statusline/after-compact.json", pretty(sl().at(-1)!.stdin, sb));
    await t.sendText("/exit");
    await until(() => records(sb).some((r) => r.label === "SessionEnd"), 15_000, "SessionEnd");
    const recs = records(sb);
    const end = firstOf(recs, "SessionEnd");
    if (end) writeOut("hooks/SessionEnd-interactive.json", pretty(end.stdin, sb));
    observations.interactive = {
      hookOrder: recs.map(
        (x) =>
          x.label +
          (x.stdin?.tool_name ? `:${x.stdin.tool_name}` : "") +
          (x.label === "statusLine" ? `(${x.stdin?.context_window?.used_percentage})` : ""),
      ),
      postToolUseFlush: postToolUseFlush(recs),
      statusLineCalls: sl().length,
      compactRequestTools: api.compactRequests()[0]?.body?.tools?.length ?? 0,
      sessionEnd: end?.stdin,
    };
    const sid = end?.stdin?.session_id;
    if (sid) copyTranscript(sb, sid, "interactive-compact-session");
  } finally {
    await t.kill();
    await api.stop();
    sb.cleanup();
  }
}

// Remove only the transcript fixtures this script owns; hooks/ and statusline/ files are overwritten
// in place, so fixtures that other tests added by hand survive.
const tdir = join(OUT, "transcripts");
if (existsSync(tdir)) {
  for (const n of readdirSync(tdir)) {
    if (/^(tools-session|subagent-session|compact-session|interactive-compact-session)/.test(n))
      rmSync(join(tdir, n), { recursive: true, force: true });
  }
}
await recordToolsSession();
await recordSubagentSession();
await recordCompactSession();
await recordInteractive();
writeOut(
  "observations.json",
  `${JSON.stringify(observations, null, 2)
    .replace(/\/tmp\/ctx-e2e-[A-Za-z0-9]+/g, PLACEHOLDER)
    .replace(/-tmp-ctx-e2e-[A-Za-z0-9]+/g, "-tmp-ctx-fixture")}\n`,
);
