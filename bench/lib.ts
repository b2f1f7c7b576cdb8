/** Shared helpers for the benchmarks: isolated dirs, timed runs, ratio tables. */
import { closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The compiled binary under test. */
export const CTX = join(import.meta.dir, "..", "dist", "ctx");

/** A fresh sandbox: HOME, XDG_* and TMPDIR inside one temp dir. */
export function sandbox(): { root: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), "ctx-bench-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "home", ".config"),
    XDG_STATE_HOME: join(root, "home", ".local", "state"),
    XDG_CACHE_HOME: join(root, "home", ".cache"),
    TMPDIR: join(root, "tmp"),
    NO_COLOR: "1",
  };
  Bun.spawnSync(["mkdir", "-p", env.HOME!, env.TMPDIR!]);
  return { root, env };
}

/** Runs `argv` once with stdin from a file and returns the wall time in ms. */
export function timeOnce(argv: string[], stdinFile: string, env: Record<string, string>, cwd?: string): number {
  const fd = openSync(stdinFile, "r");
  const started = Bun.nanoseconds();
  const r = Bun.spawnSync(argv, { stdin: fd, stdout: "ignore", stderr: "ignore", env, cwd });
  const ms = (Bun.nanoseconds() - started) / 1e6;
  closeSync(fd);
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}`);
  return ms;
}

/** The median of several interleaved runs of each candidate, so machine noise hits all alike. */
export function medians(cands: Record<string, () => number>, runs: number): Record<string, number> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cands).map((k) => [k, []]));
  for (const fn of Object.values(cands)) fn(); // warm the page cache
  for (let i = 0; i < runs; i++) for (const [k, fn] of Object.entries(cands)) samples[k]!.push(fn());
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

/** The median of a list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** One row of a results table. */
export interface Row {
  figure: string;
  measured: string;
  target: string;
  pass: boolean;
}

/** Renders rows as a Markdown table. */
export function table(rows: Row[]): string {
  const lines = ["| figure | measured | target | result |", "|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.figure} | ${r.measured} | ${r.target} | ${r.pass ? "pass" : "FAIL"} |`);
  return lines.join("\n");
}

/**
 * A sandbox with a project and the two payloads of the hook benchmarks: a status-line payload at
 * 65 % of a 200k window, and a PostToolUse payload of the same session.
 */
export function hookInputs(): { root: string; env: Record<string, string>; statusIn: string; hookIn: string } {
  const { root, env } = sandbox();
  const project = join(root, "proj");
  mkdirSync(project, { recursive: true });
  const sid = "bench-session";
  const statusIn = join(root, "status.json");
  writeFileSync(
    statusIn,
    JSON.stringify({
      session_id: sid,
      cwd: project,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
      workspace: { current_dir: project, project_dir: project },
      context_window: { context_window_size: 200000, current_usage: { input_tokens: 130000 }, used_percentage: 65 },
    }),
  );
  const hookIn = join(root, "hook.json");
  writeFileSync(
    hookIn,
    JSON.stringify({
      session_id: sid,
      transcript_path: join(root, "none.jsonl"),
      cwd: project,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: { stdout: "a\nb" },
    }),
  );
  return { root, env: { ...env, CLAUDE_PROJECT_DIR: project }, statusIn, hookIn };
}
