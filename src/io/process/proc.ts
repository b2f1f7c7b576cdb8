import { readToEnd, withReadFile } from "../fs/read.ts";
import type { Env } from "../../core/deps.ts";
import { ttyNrOfStat } from "../../core/terminal-id.ts";

/** One process as /proc shows it. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** The short command name (`/proc/<pid>/comm`). */
  comm: string;
  /** argv[0] from `/proc/<pid>/cmdline`. */
  argv0: string;
}

/** Reads a process from /proc, or undefined when it is gone or /proc is missing. */
function procInfo(pid: number, procRoot = "/proc"): ProcInfo | undefined {
  const stat = readProc(`${procRoot}/${pid}/stat`);
  if (!stat) return undefined;
  // comm is in parentheses and may itself hold spaces or parentheses: split after the last ')'.
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  const ppid = Number(fields[1]);
  const comm = stat.slice(stat.indexOf("(") + 1, close);
  const cmdline = readProc(`${procRoot}/${pid}/cmdline`) ?? "";
  return { pid, ppid: Number.isInteger(ppid) ? ppid : 0, comm, argv0: cmdline.split("\0")[0] ?? "" };
}

/** The parent of `pid` from `/proc/<pid>/stat` alone (one read), or undefined. */
export function parentPid(pid: number, procRoot = "/proc"): number | undefined {
  const stat = readProc(`${procRoot}/${pid}/stat`);
  const ppid = stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : Number.NaN;
  return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
}

/** The controlling terminal's device number of this process (core/terminal-id.ts), or undefined without one. */
export function ownTty(procRoot = "/proc"): number | undefined {
  const stat = readProc(`${procRoot}/${process.pid}/stat`);
  return stat ? ttyNrOfStat(stat) : undefined;
}

/** The ancestors of `pid`, nearest first (at most 32). */
export function ancestors(pid: number, procRoot = "/proc"): ProcInfo[] {
  const out: ProcInfo[] = [];
  let info = procInfo(pid, procRoot);
  for (let i = 0; info && info.ppid > 1 && i < 32; i++) {
    const parent = procInfo(info.ppid, procRoot);
    if (!parent) break;
    out.push(parent);
    info = parent;
  }
  return out;
}

/**
 * The Claude Code process that ran this hook: the nearest ancestor named
 * `claude` (the hook runs under `sh -c`). Its pid stays the same across /clear,
 * which links a session to the one it replaced. Undefined outside Claude Code.
 */
export function findClaudePid(pid = process.pid, procRoot = "/proc"): number | undefined {
  for (const p of ancestors(pid, procRoot)) if (isClaude(p)) return p.pid;
  return undefined;
}

/**
 * When process `pid` started, in ms since the epoch (its start time in clock ticks after boot,
 * `/proc/<pid>/stat` field 22, plus the boot time in `/proc/stat`; USER_HZ is 100 on Linux), or
 * undefined when it is gone or /proc does not tell.
 */
export function processStartMs(pid: number, procRoot = "/proc"): number | undefined {
  const stat = readProc(`${procRoot}/${pid}/stat`);
  const ticks = stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]) : Number.NaN;
  const btime = Number(/^btime (\d+)$/m.exec(readProc(`${procRoot}/stat`) ?? "")?.[1]);
  if (!Number.isFinite(ticks) || !Number.isFinite(btime) || btime <= 0) return undefined;
  return btime * 1000 + ticks * 10;
}

/** True when process `pid` looks like the Claude Code client (its comm, argv[0] or script); false when it is gone. */
export function isClaudeProcess(pid: number, procRoot = "/proc"): boolean {
  const p = procInfo(pid, procRoot);
  return p !== undefined && isClaude(p);
}

/** True for a process that looks like the Claude Code client (native binary or node script). */
function isClaude(p: ProcInfo): boolean {
  const base = p.argv0.split("/").pop() ?? "";
  return /^claude(\.exe)?$/.test(p.comm) || /^claude(\.exe)?$/.test(base) || /claude-code\/cli\.(m?js)$/.test(p.argv0);
}

/**
 * The argv that runs this same ctx: the compiled binary, or bun with the script when run from
 * source (a script file that is there). A binary replaced while we run shows as `<path> (deleted)`:
 * the new one at that path runs.
 */
export function selfCommand(): string[] {
  const script = process.argv[1];
  const exec = process.execPath.replace(/ \(deleted\)$/, "");
  if (script && /\.[cm]?[jt]s$/.test(script) && withReadFile(script, (_fd, st) => st.isFile) === true)
    return [exec, script];
  return [exec];
}

/**
 * Starts `argv` detached (its own session, no stdio), so it outlives this
 * process and the hook returns at once. Returns the child's pid, or undefined on failure.
 */
export async function spawnDetached(argv: string[], env: Env, cwd: string): Promise<number | undefined> {
  const { spawn } = await import("node:child_process");
  try {
    const child = spawn(argv[0]!, argv.slice(1), {
      detached: true,
      stdio: "ignore",
      env: env as NodeJS.ProcessEnv,
      cwd,
    });
    child.on("error", () => {});
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  }
}

// --- internal ---

/** /proc files report size 0, so they are read to the end rather than by size (without node:fs: hot path). */
export function readProc(path: string): string | undefined {
  return readToEnd(path)?.toString("utf8");
}
