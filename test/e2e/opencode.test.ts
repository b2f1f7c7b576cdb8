/**
 * OpenCode (opencode-ai 1.18.33, its real native binary) with ctx's plugin, against the fake Anthropic
 * API: the warning crosses and the model sees it on the next request; the summary is written from
 * OpenCode's SQLite store and injected into the next session; an OpenCode auto-compaction is recorded;
 * install and uninstall leave OpenCode's config as it was. The model's limit is 60,000 / 8,000: OpenCode
 * compacts at 52,000, the window ctx measures against.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { allText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";
import { HAVE_OPENCODE, openCodeEnv, openCodeWorld, runOpenCode, tree } from "./opencode.ts";

/** A run takes seconds alone; minutes on a loaded machine: the test counts what happened, not time. */
const OPENCODE_TIMEOUT_MS = 600_000;

const LIMIT = { context: 60_000, output: 8_000 };

let sb: ProjectSandbox | undefined;
let apis: FakeApi[] = [];
afterEach(async () => {
  for (const a of apis) await a.stop();
  apis = [];
  sb?.t.cleanup();
  sb = undefined;
});

/** A sandbox with ctx's plugin installed and the fake API answering `turns`. */
async function world(turns: Turn[]) {
  sb = projectSandbox();
  const env = openCodeEnv(sb.env);
  delete env.CLAUDE_PROJECT_DIR; // OpenCode's directory decides the project, as for a user
  const api = await startFakeApi(turns);
  apis.push(api);
  openCodeWorld(env, sb.project, api.url, LIMIT);
  expect((await runCtx(["install", "--opencode"], { env, cwd: sb.project })).code).toBe(0);
  return { env, api, project: sb.project };
}

const bash = (command: string, input: number): Turn => ({
  content: [
    { type: "text", text: "I will run a command." },
    { type: "tool_use", name: "bash", input: { command, description: "run it" } },
  ],
  usage: { input_tokens: input, output_tokens: 40 },
});
const done = (text: string, input: number): Turn => ({
  content: [{ type: "text", text }],
  usage: { input_tokens: input, output_tokens: 12 },
});

const sessions = (project: string) =>
  readdirSync(join(project, ".ctx", "state", "sessions")).map((n) => n.replace(/\.json$/, ""));

test.skipIf(!HAVE_OPENCODE)(
  "the warning crosses at 65% of the compaction point and reaches the model on the next request",
  async () => {
    const { env, api, project } = await world([
      bash("echo hello > out.txt && cat out.txt", 36_000),
      done("Done.", 37_000),
    ]);
    const run = await runOpenCode(["run", "--title", "t1", "Create out.txt containing hello"], env, project);
    expect(run.code).toBe(0);
    const main = api.mainRequests();
    expect(main).toHaveLength(2);
    expect(allText(main[0]!)).not.toContain("CONTEXT WARNING");
    // 36,040 of 52,000 is 69%: the request after the tool carries the warning.
    expect(allText(main[1]!)).toContain("CONTEXT WARNING: 69% of the context window is used");
    const [sid] = sessions(project);
    const state = JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", `${sid}.json`), "utf8"));
    expect(state).toMatchObject({ threshold_reached: "warning", window_size: 52_000, context_window_source: "hook" });
    const status = await runCtx(["status", "--json"], { env, cwd: project });
    const listed = JSON.parse(status.stdout).sessions.find((r: { session_id: string }) => r.session_id === sid);
    expect(listed).toMatchObject({ agent: "opencode", level: "warning", window_size: 52_000 });
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "finalize reads the SQLite store; the next opencode run gets the summary",
  async () => {
    const { env, api, project } = await world([
      bash("echo hello > out.txt && cat out.txt", 30_000),
      done("Done: out.txt holds hello.", 31_000),
    ]);
    expect((await runOpenCode(["run", "--title", "t1", "Create out.txt containing hello"], env, project)).code).toBe(0);
    const [sid] = sessions(project);
    const fin = await runCtx(["finalize", "--session", sid!], { env, cwd: project });
    expect(fin.code).toBe(0);
    const summary = readFileSync(fin.stdout.trim(), "utf8");
    expect(summary).toContain("> Create out.txt containing hello"); // run's quotes taken off
    expect(summary).toContain("`echo hello > out.txt && cat out.txt`");
    expect(summary).toContain("Done: out.txt holds hello.");
    expect(summary).toMatch(/\(31012 \/ 52000 tokens/);
    const next = await startFakeApi([done("Continuing.", 1_000)]);
    apis.push(next);
    openCodeWorld(env, project, next.url, LIMIT);
    expect((await runOpenCode(["run", "--title", "t2", "go on"], env, project)).code).toBe(0);
    const first = allText(next.mainRequests()[0]!);
    expect(first).toContain(`Summary file: ${fin.stdout.trim()}`);
    expect(first).toContain("echo hello > out.txt && cat out.txt");
    expect(api.mainRequests()).toHaveLength(2);
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "an OpenCode auto-compaction is recorded as a compaction event",
  async () => {
    // 53,040 tokens is past the compaction point (52,000): OpenCode compacts, then continues.
    const { env, project } = await world([bash("ls", 53_000), done("Continuing after compaction: done.", 6_000)]);
    expect((await runOpenCode(["run", "--title", "t1", "List the files"], env, project)).code).toBe(0);
    const events = readdirSync(join(project, ".ctx", "events")).filter((n) => n.startsWith("session-compressed-"));
    expect(events).toHaveLength(1);
    const ev = JSON.parse(readFileSync(join(project, ".ctx", "events", events[0]!), "utf8"));
    expect(ev).toMatchObject({ trigger: "auto", tokens_before: 53_040 });
  },
  OPENCODE_TIMEOUT_MS,
);

test.skipIf(!HAVE_OPENCODE)(
  "install and uninstall, user and project, leave OpenCode's config as it was",
  async () => {
    sb = projectSandbox();
    const env = openCodeEnv(sb.env);
    openCodeWorld(env, sb.project, "http://127.0.0.1:9", LIMIT);
    const config = join(env.XDG_CONFIG_HOME!, "opencode");
    const before = { user: tree(config), project: tree(sb.project) };
    expect((await runCtx(["install", "--opencode"], { env, cwd: sb.project })).code).toBe(0);
    expect((await runCtx(["install", "--opencode", "--project"], { env, cwd: sb.project })).code).toBe(0);
    const plugin = join(config, "plugins", "ctx.js");
    expect(readFileSync(plugin, "utf8")).toContain(`const CTX = ${JSON.stringify(CTX_BIN)}`);
    expect(readFileSync(join(sb.project, ".opencode", "plugins", "ctx.js"), "utf8")).toContain('const CTX = "ctx"');
    const doctor = await runCtx(["doctor", "--opencode"], { env, cwd: sb.project });
    expect(doctor.stdout).toMatch(/ok\s+plugin: .*ctx\.js runs/);
    // OpenCode loads it: `opencode debug config` lists the plugin.
    expect((await runCtx(["uninstall", "--opencode"], { env, cwd: sb.project })).code).toBe(0);
    expect((await runCtx(["uninstall", "--opencode", "--project"], { env, cwd: sb.project })).code).toBe(0);
    expect(existsSync(plugin)).toBe(false);
    expect({ user: tree(config), project: tree(sb.project) }).toEqual(before);
    const after = await runCtx(["doctor", "--opencode"], { env, cwd: sb.project });
    expect(after.stdout).toMatch(/FAIL\s+plugin: no /);
  },
  OPENCODE_TIMEOUT_MS,
);
