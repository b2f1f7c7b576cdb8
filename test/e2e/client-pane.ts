/**
 * The interactive Claude Code client in a tmux pane of its sandbox, ready to be typed into; and the per-test
 * rig that starts the fake API, the sandbox and that pane and stops them after each test.
 */
import { afterEach } from "bun:test";
import { type CtxRun, runCtx } from "../helpers/ctx.ts";
import { ALLOWED_TOOLS, CLAUDE_BIN, makeSandbox, type Sandbox, type SandboxOptions, TEST_MODEL } from "./claude.ts";
import { type FakeApi, type Script, startFakeApi } from "./fake-api.ts";
import { hooksRan, lastHookEvents } from "./project-state.ts";
import { type Supervised, superviseSession, waitUntil } from "./respawn-harness.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

/** How {@link startClient} runs the client. */
export interface ClientOptions {
  /** The tmux session's name (default that of startTmux). */
  name?: string;
  /** `--model` (default the 200k test model); null passes none, so the client runs its default, a 1M window. */
  model?: string | null;
  /** The pane's height in lines (default that of startTmux). */
  height?: number;
}

/**
 * Starts `claude --model <test model> --allowedTools …` in the sandbox's project (in the tmux
 * session `name`, when given) and waits for its input box; the pane is killed when that wait fails.
 */
export async function startClient(sandbox: Sandbox, opts: ClientOptions = {}): Promise<TmuxSession> {
  const model = opts.model === undefined ? TEST_MODEL : opts.model;
  const pane = await startTmux({
    dir: sandbox.tmp,
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.height ? { height: opts.height } : {}),
    command: [CLAUDE_BIN, ...(model === null ? [] : ["--model", model]), "--allowedTools", ...ALLOWED_TOOLS],
    env: sandbox.env,
    cwd: sandbox.project,
  });
  try {
    await pane.waitFor(/for shortcuts|❯/, 30_000);
    return pane;
  } catch (err) {
    await pane.kill().catch(() => {});
    throw err;
  }
}

/** Options for {@link TestRig.installed}: the client's, and the arguments after `ctx install`. */
export interface InstalledOptions extends ClientOptions {
  /** E.g. `["--budget", "200k"]`. */
  install?: string[];
}

/** What {@link TestRig.installed} started. */
export interface Installed {
  api: FakeApi;
  sandbox: Sandbox;
  pane: TmuxSession;
  /** The `ctx install` run (exit 0). */
  install: CtxRun;
}

/** Starts what an e2e test needs; whatever it started is stopped after the test (see {@link stopAfterEach}). */
export interface TestRig {
  /** The fake API answering `script`. */
  api(script: Script): Promise<FakeApi>;
  /** A fresh sandbox, removed after the test. */
  sandbox(opts: SandboxOptions): Promise<Sandbox>;
  /** The client in a pane of `sandbox` ({@link startClient}), killed after the test. */
  client(sandbox: Sandbox, opts?: ClientOptions): Promise<TmuxSession>;
  /**
   * The usual start of an interactive test: the fake API, a sandbox on it (NO_COLOR: the screen reads as
   * text), `ctx install` in its project (it must exit 0), then the client in its pane.
   */
  installed(script: Script, opts?: InstalledOptions): Promise<Installed>;
  /** A session under `ctx respawn start` ({@link superviseSession}), cleaned up (with its sandbox) after the test. */
  supervise(...args: Parameters<typeof superviseSession>): Promise<Supervised>;
}

/**
 * Registers, in the calling test file, an afterEach that stops the supervised sessions, kills the panes, stops
 * the fake APIs and removes the sandboxes the returned rig started during the test, in that order.
 */
export function stopAfterEach(): TestRig {
  let supervised: Supervised[] = [];
  let panes: TmuxSession[] = [];
  let apis: FakeApi[] = [];
  let sandboxes: Sandbox[] = [];
  afterEach(async () => {
    for (const sup of supervised) await sup.cleanup();
    for (const pane of panes) await pane.kill().catch(() => {});
    for (const api of apis) await api.stop();
    for (const sandbox of sandboxes) sandbox.cleanup();
    supervised = [];
    panes = [];
    apis = [];
    sandboxes = [];
  });
  const rig: TestRig = {
    async api(script) {
      const api = await startFakeApi(script);
      apis.push(api);
      return api;
    },
    async sandbox(opts) {
      const sandbox = await makeSandbox(opts);
      sandboxes.push(sandbox);
      return sandbox;
    },
    async client(sandbox, opts) {
      const pane = await startClient(sandbox, opts);
      panes.push(pane);
      return pane;
    },
    async installed(script, opts = {}) {
      const api = await rig.api(script);
      const sandbox = await rig.sandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
      const install = await runCtx(["install", ...(opts.install ?? [])], { env: sandbox.env, cwd: sandbox.project });
      if (install.code !== 0) throw new Error(`ctx install exited ${install.code}: ${install.stderr}`);
      return { api, sandbox, pane: await rig.client(sandbox, opts), install };
    },
    async supervise(...args) {
      const sup = await superviseSession(...args);
      supervised.push(sup);
      return sup;
    },
  };
  return rig;
}

/** Waits (up to 10 s) until the pane stays the same for a second: nothing is drawn, the client waits for input. */
export async function screenSettled(pane: TmuxSession): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = await pane.capture();
  let since = Date.now();
  while (Date.now() < deadline && Date.now() - since < 1000) {
    await Bun.sleep(200);
    const now = await pane.capture();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/**
 * After a finished turn (ctx track on Stop, SessionStart and SessionEnd): waits for the turn's Stop hook, types
 * /clear, waits for the old session's SessionEnd and the fresh one's SessionStart (and `ready`, when given),
 * then types `prompt` into the fresh session. In place of fixed sleeps around the /clear.
 */
export async function clearAndPrompt(
  pane: TmuxSession,
  project: string,
  prompt: string,
  ready?: () => boolean,
): Promise<void> {
  const ended = lastHookEvents(project).filter((e) => e === "SessionEnd");
  await hooksRan(project, [...ended, "Stop"]);
  await screenSettled(pane); // the client done with the turn (its hooks run after the reply shows)
  await pane.sendText("/clear");
  await hooksRan(project, [...ended, "SessionEnd", "SessionStart"]);
  if (ready) await waitUntil(ready, 20_000, () => `not ready after /clear: ${String(ready)}`);
  await pane.sendText(prompt);
}
