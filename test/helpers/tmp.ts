import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp directory, removed by `cleanup()`. */
export function tempDir(prefix = "ctx-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * An isolated environment for running ctx: HOME, XDG_* and TMPDIR all inside
 * one fresh temp directory, and nothing of the caller's CTX_* or CLAUDE_* variables.
 */
export function isolatedEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v === undefined ||
      /^(CTX_|CLAUDE|ANTHROPIC_|XDG_|GEMINI_CLI$)/.test(k) ||
      k === "HOME" ||
      k === "TMPDIR" ||
      k === "NO_COLOR"
    )
      continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "home", ".config"),
    XDG_STATE_HOME: join(root, "home", ".local", "state"),
    XDG_CACHE_HOME: join(root, "home", ".cache"),
    XDG_DATA_HOME: join(root, "home", ".local", "share"),
    TMPDIR: join(root, "tmp"),
    ...extra,
  };
}

/** A per-test project sandbox: a temp dir holding `proj/`, and an isolated env whose CLAUDE_PROJECT_DIR is that project. */
export interface ProjectSandbox {
  t: { dir: string; cleanup: () => void };
  project: string;
  env: Record<string, string>;
}

/** Creates a ProjectSandbox (TMPDIR exists; HOME and XDG_* are inside it too). */
export function projectSandbox(extra: Record<string, string> = {}): ProjectSandbox {
  const t = tempDir();
  const project = join(t.dir, "proj");
  mkdirSync(project, { recursive: true });
  const env = isolatedEnv(t.dir, { CLAUDE_PROJECT_DIR: project, ...extra });
  mkdirSync(env.TMPDIR!, { recursive: true });
  return { t, project, env };
}
