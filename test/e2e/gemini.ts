/**
 * Helpers to run the real Gemini CLI (`@google/gemini-cli` 0.61.0) headless in an
 * isolated sandbox: fresh HOME, XDG_* dirs, TMPDIR and project dir, the fake
 * Gemini API of `fake-gemini.ts`, and the user settings headless use needs.
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
import { join, resolve } from "node:path";
import { assertIsolated, REPO_ROOT } from "./claude.ts";

/** The pinned Gemini CLI (its bundle, run with node like the `gemini` bin does). */
export const GEMINI_JS = join(REPO_ROOT, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js");
/** The model the tests ask for (`-m` also skips the model-router call). */
export const GEMINI_MODEL = "gemini-2.5-flash";
/** Gemini models' context window. */
export const GEMINI_WINDOW = 1_048_576;

/** The settings a user of headless Gemini CLI has (API key auth, no folder-trust prompt, quiet). */
export function userGeminiSettings(): Record<string, unknown> {
  return {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
}

/** An isolated environment for Gemini CLI runs. */
export interface GeminiSandbox {
  root: string;
  home: string;
  project: string;
  /** `$HOME/.gemini/settings.json`. */
  settingsPath: string;
  env: Record<string, string>;
  cleanup(): void;
}

const STRIP_ENV =
  /^(GEMINI_.*|GOOGLE_.*|CLAUDECODE|CLAUDE_.*|ANTHROPIC_.*|CTX_.*|XDG_.*|TMUX|TMUX_PANE|TMPDIR|OTEL_.*)$/;

/** Creates a sandbox whose `~/.gemini/settings.json` holds `settings` (default: {@link userGeminiSettings}). */
export function makeGeminiSandbox(apiUrl: string, settings: object = userGeminiSettings()): GeminiSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ctx-gem-")));
  const d = (name: string): string => {
    const p = join(root, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const home = d("home");
  const project = d("project");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !STRIP_ENV.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: d("xdg/config"),
    XDG_STATE_HOME: d("xdg/state"),
    XDG_CACHE_HOME: d("xdg/cache"),
    XDG_DATA_HOME: d("xdg/data"),
    TMPDIR: d("tmp"),
    GEMINI_API_KEY: "gemini-e2e-test-key",
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    TERM: "dumb",
    NO_COLOR: "1",
    // The context budget (docs/budget.md) is off: these tests are about Gemini's own 1,048,576 window.
    CTX_CONTEXT_BUDGET: "off",
  });
  assertIsolated(env, root);
  const settingsPath = join(d("home/.gemini"), "settings.json");
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
  return { root, home, project, settingsPath, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** One headless run's outcome. */
export interface GeminiRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed `-o json` output (`session_id`, `response`, `stats`), when it was JSON. */
  json?: any;
}

/** Runs `gemini -p <prompt> --yolo -o json -m gemini-2.5-flash` in the project dir. */
export async function runGeminiP(
  sb: GeminiSandbox,
  prompt: string,
  opts: { timeoutMs?: number; args?: string[] } = {},
): Promise<GeminiRun> {
  const argv = ["node", GEMINI_JS, "-p", prompt, "--yolo", "-o", "json", "-m", GEMINI_MODEL, ...(opts.args ?? [])];
  const proc = Bun.spawn(argv, { cwd: sb.project, env: sb.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  let json: any;
  try {
    json = JSON.parse(stdout.slice(stdout.indexOf("{")));
  } catch {
    /* not JSON */
  }
  return { code, stdout, stderr, json };
}

/** The chat logs (`~/.gemini/tmp/<project>/chats/*.jsonl`) of the sandbox, oldest name first. */
export function chatLogs(sb: GeminiSandbox): string[] {
  const base = join(sb.home, ".gemini", "tmp");
  const out: string[] = [];
  if (!existsSync(base)) return out;
  for (const p of readdirSync(base)) {
    const chats = join(base, p, "chats");
    if (existsSync(chats)) for (const n of readdirSync(chats)) if (n.endsWith(".jsonl")) out.push(resolve(chats, n));
  }
  return out.sort();
}

/** A parsed JSONL file (broken lines skipped). */
export function jsonl(path: string): any[] {
  return readFileSync(path, "utf8")
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
