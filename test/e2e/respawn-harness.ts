/**
 * Shared setup for the respawn end-to-end tests: a sandbox with ctx track and
 * ctx resume --hook wired, a private tmux server (TMUX_TMPDIR in the sandbox),
 * and `ctx respawn start` running in the background.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { CTX_BIN } from "../helpers/ctx.ts";
import { ALLOWED_TOOLS, CLAUDE_BIN, hookEntry, makeSandbox, TEST_MODEL, type Sandbox } from "./claude.ts";
import type { FakeApi } from "./fake-api.ts";

/** A supervised session under test. */
export interface Supervised {
  sandbox: Sandbox;
  /** The supervisor process (`ctx respawn start`). */
  proc: Subprocess;
  /** Its environment (also for `ctx respawn stop` and tmux). */
  env: Record<string, string>;
  /** The supervisor's record, parsed (undefined until written). */
  record(): any;
  /** Runs tmux on the private server. */
  tmux(...args: string[]): Promise<{ code: number; out: string }>;
  /** Supervisor stderr so far. */
  log(): string;
  /** Stops everything and removes the sandbox. */
  cleanup(): Promise<void>;
}

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "StopFailure",
  "PreCompact",
  "SessionEnd",
];

/**
 * More of the sandbox: variables to remove (an auth kind), settings beside the hooks (a status line),
 * files in the project, the tools allowed without a permission dialog (default ALLOWED_TOOLS), more client arguments.
 */
export interface SuperviseOptions {
  unsetEnv?: string[];
  settings?: Record<string, unknown>;
  projectFiles?: Record<string, string>;
  allowedTools?: string[];
  /** More arguments for the client (`--permission-mode plan`). */
  clientArgs?: string[];
  /** More hook commands per event (`ctx monitor` on PostToolUse), after ctx track's. */
  moreHooks?: Record<string, object[]>;
  /** Runs in the sandbox before the supervisor starts (state the session must find from its first hook). */
  prepare?: (env: Record<string, string>, sandbox: Sandbox) => Promise<void>;
}

/** Starts (with `events`: only those wired to ctx track) `ctx respawn start --name e2e -- <claude args> <prompt>` in a fresh sandbox. */
export async function superviseSession(
  api: FakeApi,
  prompt: string,
  respawnEnv: Record<string, string>,
  events = EVENTS,
  more: SuperviseOptions = {},
): Promise<Supervised> {
  const hooks: Record<string, object[]> = { SessionStart: [] };
  for (const e of events) hooks[e] = hookEntry(`${CTX_BIN} track`, e.startsWith("PostToolUse") ? "*" : undefined);
  hooks.SessionStart = [...hooks.SessionStart!, ...hookEntry(`${CTX_BIN} resume --hook`)];
  for (const [e, entries] of Object.entries(more.moreHooks ?? {})) hooks[e] = [...(hooks[e] ?? []), ...entries];
  const sandbox = await makeSandbox({
    apiUrl: api.url,
    settings: { ...more.settings, hooks },
    ...(more.projectFiles ? { projectFiles: more.projectFiles } : {}),
  });
  const allowed = more.allowedTools ?? ALLOWED_TOOLS;
  if (more.allowedTools) {
    const file = join(sandbox.home, ".claude.json");
    const conf = JSON.parse(readFileSync(file, "utf8"));
    conf.projects[sandbox.project].allowedTools = allowed;
    writeFileSync(file, JSON.stringify(conf, null, 2));
  }
  const env: Record<string, string> = {
    ...sandbox.env,
    TMUX_TMPDIR: sandbox.tmp,
    CTX_CLAUDE: CLAUDE_BIN,
    CTX_RESPAWN_POLL_MS: "250",
    CTX_RESPAWN_QUIET_MS: "1200",
    CTX_RESPAWN_COOLDOWN_S: "0",
    CTX_RESPAWN_ENTER_DELAY_MS: "150",
    ...respawnEnv,
  };
  delete env.TMUX;
  delete env.TMUX_PANE;
  for (const k of more.unsetEnv ?? []) delete env[k];
  await more.prepare?.(env, sandbox);
  const args = [
    "respawn",
    "start",
    "--name",
    "e2e",
    "--",
    "--model",
    TEST_MODEL,
    "--allowedTools",
    ...allowed,
    ...(more.clientArgs ?? []),
    "--",
    prompt,
  ];
  const proc = Bun.spawn([CTX_BIN, ...args], {
    cwd: sandbox.project,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  void (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  const recordFile = join(sandbox.project, ".ctx", "state", "respawn", "e2e.json");
  const tmux = async (...a: string[]) => {
    const p = Bun.spawn(["tmux", ...a], { env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return { code, out };
  };
  return {
    sandbox,
    proc,
    env,
    tmux,
    record: () => {
      try {
        return JSON.parse(readFileSync(recordFile, "utf8"));
      } catch {
        return undefined;
      }
    },
    log: () => stderr,
    async cleanup() {
      proc.kill("SIGTERM");
      await Promise.race([proc.exited, Bun.sleep(5000)]);
      await tmux("kill-server");
      sandbox.cleanup();
    },
  };
}

/** Polls `check` until it returns a truthy value; throws with `describe()` on timeout. */
export async function waitUntil<T>(
  check: () => T | undefined | false,
  timeoutMs: number,
  describe: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms\n${describe()}`);
    await Bun.sleep(250);
  }
}

/** Usage that puts a 200k-window session at `pct` %. */
export function usageAt(pct: number): { input_tokens: number; cache_read_input_tokens: number; output_tokens: number } {
  const total = pct * 2000;
  return { input_tokens: 100, cache_read_input_tokens: total - 100, output_tokens: 20 };
}

/** What a failed wait shows: the supervisor's recorded events and its log. */
export function explain(sup: Supervised | undefined): string {
  return `record: ${JSON.stringify(sup?.record()?.events ?? null, null, 1)}\nlog:\n${sup?.log()}`;
}
