/**
 * Helpers to run the real Codex CLI (`@openai/codex` 0.169.0) headless in an isolated sandbox: fresh
 * HOME, CODEX_HOME, XDG_* dirs, TMPDIR and a git project, a config.toml whose provider is the fake
 * Responses API of `fake-codex.ts`. The binary is `CTX_CODEX_BIN`, else node_modules/.bin/codex.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { assertIsolated, REPO_ROOT } from "./claude.ts";

/** The pinned Codex CLI. */
export const CODEX_BIN = process.env.CTX_CODEX_BIN || join(REPO_ROOT, "node_modules", ".bin", "codex");
/** gpt-5.5's window as Codex reports it (272,000 × 95 %). */
export const CODEX_WINDOW = 258_400;

/** An isolated environment for Codex CLI runs. */
export interface CodexSandbox {
  root: string;
  home: string;
  codexHome: string;
  project: string;
  env: Record<string, string>;
  cleanup(): void;
}

const STRIP_ENV =
  /^(CODEX_.*|OPENAI_.*|CLAUDECODE|CLAUDE_.*|ANTHROPIC_.*|GEMINI_.*|CTX_.*|XDG_.*|TMUX|TMUX_PANE|TMPDIR)$/;

/** The config.toml of a user of the fake provider (no hooks: `ctx install --codex` adds them). */
export function codexConfig(apiUrl: string, project: string): string {
  return [
    'model = "gpt-5.5"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "",
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = "${apiUrl}"`,
    'env_key = "CTX_FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    "",
    `[projects."${project}"]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
}

/** Creates a sandbox with `$CODEX_HOME/config.toml` pointing at the fake API. */
export function makeCodexSandbox(apiUrl: string): CodexSandbox {
  if (!existsSync(CODEX_BIN))
    throw new Error(
      `no Codex CLI at ${CODEX_BIN}: run npm install (@openai/codex is a devDependency) or set CTX_CODEX_BIN`,
    );
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ctx-codex-")));
  const d = (name: string): string => {
    const p = join(root, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const home = d("home");
  const codexHome = d("home/.codex");
  const project = d("project");
  Bun.spawnSync(["git", "init", "-q", project]);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !STRIP_ENV.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    CODEX_HOME: codexHome,
    XDG_CONFIG_HOME: d("xdg/config"),
    XDG_STATE_HOME: d("xdg/state"),
    XDG_CACHE_HOME: d("xdg/cache"),
    XDG_DATA_HOME: d("xdg/data"),
    TMPDIR: d("tmp"),
    CTX_FAKE_OPENAI_KEY: "sk-fake-codex-e2e",
    NO_COLOR: "1",
    // The context budget (docs/budget.md) is off: these tests are about Codex's own figure of its window.
    CTX_CONTEXT_BUDGET: "off",
  });
  assertIsolated(env, root);
  writeFileSync(join(codexHome, "config.toml"), codexConfig(apiUrl, project));
  return { root, home, codexHome, project, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** One `codex exec --json` run: exit code, the JSONL events, stderr. */
export async function runCodexExec(
  sb: CodexSandbox,
  prompt: string,
  env: Record<string, string> = sb.env,
): Promise<{ code: number; events: any[]; stderr: string }> {
  const p = Bun.spawn([CODEX_BIN, "exec", "--json", prompt], {
    cwd: sb.project,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  const code = await p.exited;
  const events = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
  return { code, events, stderr: err };
}

/** `codex app-server` `hooks/list` for `cwd`: each hook's key, currentHash and trustStatus. */
export async function listHooks(sb: CodexSandbox): Promise<any[]> {
  const p = Bun.spawn([CODEX_BIN, "app-server"], { env: sb.env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const send = (o: object) => p.stdin.write(`${JSON.stringify(o)}\n`);
  const reader = p.stdout.getReader();
  let buf = "";
  const reply = async (id: number): Promise<any> => {
    for (;;) {
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        const m = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (m.id === id) return m;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("codex app-server closed");
      buf += new TextDecoder().decode(value);
    }
  };
  try {
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: { name: "ctx-e2e", version: "0" } } });
    await reply(1);
    send({ jsonrpc: "2.0", method: "initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [sb.project] } });
    const r = await reply(2);
    return r.result.data.flatMap((d: any) => d.hooks);
  } finally {
    p.kill();
    await p.exited;
  }
}

/** Every file under `dir` with its content (a snapshot to compare). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}
