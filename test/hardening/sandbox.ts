/**
 * A sandbox for hostile runs: HOME, XDG_* and TMPDIR in one temp dir, a project
 * with a git HEAD and a real transcript, hostile files (a FIFO, a directory, a
 * symlink), and a tree snapshot that tells what a run changed outside the
 * state directories.
 */
import {
  accessSync,
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { isolatedEnv } from "../helpers/tmp.ts";

/** The transcript recorded from the real client. */
export const FIXTURE_TRANSCRIPT = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");

/** A prepared sandbox. */
export interface Sandbox {
  dir: string;
  project: string;
  transcript: string;
  env: Record<string, string>;
  /** Other transcript paths inside the sandbox: a FIFO, a directory, a symlink to the transcript, another real transcript. */
  hostilePaths: string[];
  cleanup: () => void;
}

/**
 * Creates a sandbox; `extraEnv` is added to its environment. With `memory`, it
 * lives on /dev/shm when there is one: fsync is free there, which the bulk
 * of the fuzzing needs (a state write costs three fsyncs on a disk).
 */
export function makeSandbox(extraEnv: Record<string, string> = {}, memory = false): Sandbox {
  const dir = mkdtempSync(join(memory && writable("/dev/shm") ? "/dev/shm" : tmpdir(), "ctx-hard-"));
  const t = { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  const project = join(t.dir, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  writeFileSync(join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
  const env = isolatedEnv(t.dir, { CLAUDE_PROJECT_DIR: project, ...extraEnv });
  mkdirSync(env.TMPDIR!, { recursive: true });
  mkdirSync(env.HOME!, { recursive: true });
  const transcript = join(t.dir, "transcript.jsonl");
  copyFileSync(FIXTURE_TRANSCRIPT, transcript);
  const fifo = join(t.dir, "fifo.jsonl");
  Bun.spawnSync(["mkfifo", fifo]);
  const link = join(t.dir, "link.jsonl");
  symlinkSync(transcript, link);
  mkdirSync(join(t.dir, "dir.jsonl"));
  const other = join(t.dir, "compact-session.jsonl");
  copyFileSync(join(FIXTURE_TRANSCRIPT, "..", "compact-session.jsonl"), other);
  return {
    dir: t.dir,
    project,
    transcript,
    env,
    hostilePaths: [fifo, link, join(t.dir, "dir.jsonl"), other],
    cleanup: t.cleanup,
  };
}

/** Path → "size mtime mode" of every entry under `dir` (symlinks not followed). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      out.set(relative(dir, p), `${st.size} ${st.mtimeMs} ${st.mode}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * The paths created, changed or removed between two snapshots that are not in
 * a state directory: `<project>/.ctx`, `$XDG_STATE_HOME/ctx`, or a bridge file
 * `$TMPDIR/claude-ctx-<sid>.json`.
 */
export function changesOutsideState(sb: Sandbox, before: Map<string, string>, after: Map<string, string>): string[] {
  const allowed = [relative(sb.dir, join(sb.project, ".ctx")), relative(sb.dir, join(sb.env.XDG_STATE_HOME!, "ctx"))];
  const tmp = relative(sb.dir, sb.env.TMPDIR!);
  const ok = (p: string) =>
    allowed.some((a) => p === a || p.startsWith(`${a}/`)) ||
    new RegExp(`^${tmp}/claude-ctx-[A-Za-z0-9_-]{1,128}\\.json$`).test(p) ||
    // directories that hold state: their mtime changes when state is created in them
    [
      relative(sb.dir, sb.project),
      tmp,
      relative(sb.dir, sb.env.XDG_STATE_HOME!),
      relative(sb.dir, sb.env.HOME!),
      "home/.local",
    ].includes(p);
  const changed: string[] = [];
  for (const [p, v] of after) if (before.get(p) !== v && !ok(p)) changed.push(p);
  for (const p of before.keys()) if (!after.has(p) && !ok(p)) changed.push(`(removed) ${p}`);
  return changed;
}

/** Waits (at most `ms`) until no process has `dir` on its command line: detached finalizes the runs started. */
export async function waitForStrays(dir: string, ms = 15_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const strays = readdirSync("/proc").filter(
      (p) => /^\d+$/.test(p) && Number(p) !== process.pid && cmdline(p).includes(dir),
    );
    if (strays.length === 0 || Date.now() > deadline) return strays.length;
    await Bun.sleep(50);
  }
}

// --- internal ---

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}
