/**
 * Helpers to run the real Claude Code client in an isolated sandbox:
 * fresh HOME, XDG_* dirs, TMPDIR and project dir under os.tmpdir(), never the real home.
 */
import {
  mkdtempSync,
  mkdirSync,
  writeFileSync,
  realpathSync,
  rmSync,
  readdirSync,
  statSync,
  existsSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runChild } from "../../src/io/process/child.ts";
import { CTX_BIN } from "../helpers/ctx.ts";

/** Repository root (two levels above this file). */
export const REPO_ROOT = resolve(import.meta.dir, "..", "..");
/**
 * The real Claude Code clients the suite runs against, both pinned devDependencies:
 * `pinned` (2.1.197, the default) and `newest` (2.1.332, the npm alias `claude-code-next`).
 * `CTX_TEST_CLIENT` picks one; never `node_modules/.bin/claude`, which either package may own.
 */
export const CLIENTS = {
  pinned: {
    version: "2.1.197",
    bin: join(REPO_ROOT, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"),
  },
  newest: { version: "2.1.332", bin: join(REPO_ROOT, "node_modules", "claude-code-next", "bin", "claude.exe") },
} as const;
/** Which client this run uses (`CTX_TEST_CLIENT`: pinned or newest; a version number works too). */
export const CLIENT = pickClient(process.env.CTX_TEST_CLIENT);
/** The real Claude Code client of this run. */
export const CLAUDE_BIN = CLIENT.bin;

function pickClient(name: string | undefined): (typeof CLIENTS)[keyof typeof CLIENTS] {
  if (!name || name === "pinned" || name === CLIENTS.pinned.version) return CLIENTS.pinned;
  if (name === "newest" || name === CLIENTS.newest.version) return CLIENTS.newest;
  throw new Error(
    `CTX_TEST_CLIENT=${name}: use pinned (${CLIENTS.pinned.version}) or newest (${CLIENTS.newest.version})`,
  );
}
/** Model used by tests: a 200k-context one (the default model is a 1M one). */
export const TEST_MODEL = "claude-sonnet-4-5";
/** Tools allowed without prompting (root cannot use --dangerously-skip-permissions). */
export const ALLOWED_TOOLS = ["Bash", "Write", "Read", "Edit", "TaskCreate", "TaskUpdate"];
/** The API key given to the client; any string works against the fake server. */
export const TEST_API_KEY = "sk-ant-e2e-test-key-0123456789abcdef";

/** An isolated environment for one or more client runs. */
export interface Sandbox {
  /** Root temp dir holding everything below. */
  root: string;
  /** Fake $HOME (holds .claude.json and .claude/). */
  home: string;
  /** The project directory (cwd of the client, trusted in .claude.json). */
  project: string;
  /** Fake TMPDIR; also holds the private tmux socket. */
  tmp: string;
  /** Full environment for spawning the client. */
  env: Record<string, string>;
  /** Removes the whole sandbox. */
  cleanup(): void;
}

/** Options for {@link makeSandbox}. */
export interface SandboxOptions {
  /** Written to $HOME/.claude/settings.json (hooks, statusLine, …). */
  settings?: object;
  /** Base URL of the fake API, e.g. `FakeApi.url`. */
  apiUrl: string;
  /** Files to create in the project dir: relative path → contents. */
  projectFiles?: Record<string, string>;
  /** Extra environment variables for the client. */
  extraEnv?: Record<string, string>;
}

const STRIP_ENV = /^(CLAUDECODE|CLAUDE_.*|ANTHROPIC_.*|CTX_.*|XDG_.*|TMUX|TMUX_PANE|TMPDIR|OTEL_.*)$/;

/** Creates a fresh sandbox with onboarding done, the key approved and the project trusted. */
export async function makeSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ctx-e2e-")));
  const d = (name: string): string => {
    const p = join(root, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const home = d("home");
  const project = d("project");
  const tmp = d("tmp");
  const xdg = {
    XDG_CONFIG_HOME: d("xdg/config"),
    XDG_STATE_HOME: d("xdg/state"),
    XDG_CACHE_HOME: d("xdg/cache"),
    XDG_DATA_HOME: d("xdg/data"),
  };
  mkdirSync(join(home, ".claude"), { recursive: true });

  writeFileSync(
    join(home, ".claude.json"),
    JSON.stringify(
      {
        hasCompletedOnboarding: true,
        theme: "dark",
        customApiKeyResponses: { approved: [TEST_API_KEY.slice(-20)], rejected: [] },
        projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: ["Bash", "Read", "Write", "Edit"] } },
      },
      null,
      2,
    ),
  );
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify(opts.settings ?? {}, null, 2));
  for (const [rel, text] of Object.entries(opts.projectFiles ?? {})) {
    const p = join(project, rel);
    mkdirSync(resolve(p, ".."), { recursive: true });
    writeFileSync(p, text);
  }

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !STRIP_ENV.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    ...xdg,
    TMPDIR: tmp,
    ANTHROPIC_BASE_URL: opts.apiUrl,
    ANTHROPIC_API_KEY: TEST_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    // Offline, the client's attempt to clone the official plugin marketplace ends in a "setup issue"
    // notice; when that lands while a prompt is being typed, the client ignored Enter for good (2.1.197).
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    ...opts.extraEnv,
  });
  if (env.CLAUDE_CONFIG_DIR !== undefined && !env.CLAUDE_CONFIG_DIR.startsWith(`${home}/`))
    delete env.CLAUDE_CONFIG_DIR;
  assertIsolated(env, root);

  return { root, home, project, tmp, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Throws unless every home-like variable points inside `root` (guards the real home). */
export function assertIsolated(env: Record<string, string>, root: string): void {
  for (const k of ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "TMPDIR"]) {
    const v = env[k];
    if (!v || !(v === root || v.startsWith(`${root}/`))) throw new Error(`sandbox env ${k}=${v} escapes ${root}`);
  }
  if (env.CLAUDE_CONFIG_DIR && !env.CLAUDE_CONFIG_DIR.startsWith(`${root}/`))
    throw new Error("CLAUDE_CONFIG_DIR escapes sandbox");
}

/** Result of one headless run. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed stdout when `--output-format json` produced JSON. */
  json?: any;
  timedOut: boolean;
}

/** Options for {@link runClaudeP}. */
export interface RunOptions {
  /** Extra CLI args, appended after the defaults (e.g. `["--resume", id]`). */
  args?: string[];
  /** Kill the client after this long (default 45 s). */
  timeoutMs?: number;
  /** Extra environment on top of `sandbox.env`. */
  env?: Record<string, string>;
  /** The `--model` to pass (default TEST_MODEL); null passes none, so the client picks its own default. */
  model?: string | null;
}

/** The argv used for a headless run (without the binary); `model` null leaves `--model` out. */
export function headlessArgs(prompt: string, extra: string[] = [], model: string | null = TEST_MODEL): string[] {
  const m = model === null ? [] : ["--model", model];
  return ["-p", prompt, ...m, "--allowedTools", ...ALLOWED_TOOLS, "--output-format", "json", ...extra];
}

/** Runs `claude -p <prompt>` in the sandbox's project dir and waits for it. */
export async function runClaudeP(sandbox: Sandbox, prompt: string, opts: RunOptions = {}): Promise<RunResult> {
  const { code, stdout, stderr, timedOut } = await runChild(
    [CLAUDE_BIN, ...headlessArgs(prompt, opts.args, opts.model)],
    {
      cwd: sandbox.project,
      env: { ...sandbox.env, ...opts.env },
      timeoutMs: opts.timeoutMs ?? 45_000,
    },
  );
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    /* not JSON */
  }
  return { code, stdout, stderr, json, timedOut };
}

/** All transcript .jsonl files under $HOME/.claude/projects (recursive, includes subagent files). */
export function findTranscripts(sandbox: Sandbox): string[] {
  const base = join(sandbox.home, ".claude", "projects");
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".jsonl")) out.push(p);
    }
  };
  walk(base);
  return out.sort();
}

/** Parses a JSONL file into objects (skipping blank/broken lines). */
export async function readJsonl(path: string): Promise<any[]> {
  const text = await Bun.file(path).text();
  return text
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}

/** A settings.json `hooks` entry running `command` for `event`. */
export function hookEntry(command: string, matcher?: string): object[] {
  return [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: "command", command }] }];
}

/**
 * settings.json hooks for a chain across /clear: ctx track on SessionStart, UserPromptSubmit, PostToolUse (every
 * tool), Stop and SessionEnd, and ctx resume --hook on SessionStart after it (no monitor, no status line).
 */
export function continuityHooks(): Record<string, object[]> {
  const h: Record<string, object[]> = {};
  for (const e of ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"])
    h[e] = hookEntry(`${CTX_BIN} track`, e === "PostToolUse" ? "*" : undefined);
  h.SessionStart = [...h.SessionStart!, ...hookEntry(`${CTX_BIN} resume --hook`)];
  return h;
}
