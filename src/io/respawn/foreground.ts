/**
 * Who is in the pane's foreground: the supervisor types only into the Claude Code it started or
 * attached to. Before every keystroke it reads, from /proc, the foreground process group of the
 * pane's terminal (`tpgid` of the pane's process, `#{pane_pid}`) and checks that the client it
 * bound to is in that group, runs in the pane, and is still the same process (start time, the
 * executable, a Claude Code command). A shell whose prompt imitates the input box, an editor the
 * client opened, or a new process reusing the pid is not typed into (docs/respawn.md).
 */
import { readlinkSync, readdirSync } from "node:fs";
import { ancestors, isClaudeProcess, readProc } from "../process/proc.ts";

/** The Claude Code process a supervisor types to. */
export interface PaneClient {
  pid: number;
  /** Its start time (clock ticks after boot): a reused pid has another one. */
  start: string;
  /** `/proc/<pid>/exe`. */
  exe: string;
}

/** Whether typing is allowed: the client, or why not (for the record and the user). */
export type ClientCheck = { ok: true; client: PaneClient } | { ok: false; why: string };

/**
 * Checks the pane whose process is `panePid`. With `expected` (the client bound earlier), that
 * process must be in the foreground; without, the Claude Code process of the foreground group
 * that runs in the pane is found and returned, to be expected from then on.
 */
export function checkPaneClient(panePid: number, expected?: PaneClient, procRoot = "/proc"): ClientCheck {
  const pane = statOf(panePid, procRoot);
  if (!pane) return { ok: false, why: `the pane's process (pid ${panePid}) is gone` };
  const fg = pane.tpgid;
  if (fg <= 0) return { ok: false, why: "the pane's terminal has no foreground process" };
  const client = (pid: number): PaneClient | undefined => {
    const st = statOf(pid, procRoot);
    if (!st || st.pgrp !== fg || !isClaudeProcess(pid, procRoot)) return undefined;
    if (pid !== panePid && !ancestors(pid, procRoot).some((p) => p.pid === panePid)) return undefined;
    return { pid, start: st.start, exe: exeOf(pid, procRoot) };
  };
  if (expected) {
    const now = client(expected.pid);
    if (now && now.start === expected.start && now.exe === expected.exe) return { ok: true, client: expected };
    return {
      ok: false,
      why: `${describe(fg, procRoot)} is in the pane's foreground, not the Claude Code (pid ${expected.pid}) it supervises`,
    };
  }
  for (const pid of groupOf(fg, procRoot)) {
    const found = client(pid);
    if (found) return { ok: true, client: found };
  }
  return { ok: false, why: `${describe(fg, procRoot)} is in the pane's foreground, not Claude Code` };
}

// --- internal ---

/** The fields of `/proc/<pid>/stat` used here; undefined when the process is gone. */
function statOf(pid: number, procRoot: string): { pgrp: number; tpgid: number; start: string } | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const stat = readProc(`${procRoot}/${pid}/stat`);
  if (!stat) return undefined;
  // After the comm (in parentheses, may hold anything): state, ppid, pgrp, session, tty_nr, tpgid, … starttime (22nd).
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pgrp: Number(f[2]), tpgid: Number(f[5]), start: f[19] ?? "" };
}

function exeOf(pid: number, procRoot: string): string {
  try {
    return readlinkSync(`${procRoot}/${pid}/exe`);
  } catch {
    return ""; // another user's process: the same for every look, so only the start time tells
  }
}

/** The members of process group `pgrp`: its leader first, then the others /proc lists (at most 4,096 looked at). */
function groupOf(pgrp: number, procRoot: string): number[] {
  const out = [pgrp];
  let names: string[] = [];
  try {
    names = readdirSync(procRoot).filter((n) => /^\d+$/.test(n));
  } catch {
    return out;
  }
  for (const n of names.slice(0, 4096)) {
    const pid = Number(n);
    if (pid !== pgrp && statOf(pid, procRoot)?.pgrp === pgrp) out.push(pid);
  }
  return out;
}

/** `bash (pid 123)`, printable only. */
function describe(pid: number, procRoot: string): string {
  const comm = (readProc(`${procRoot}/${pid}/comm`) ?? "").trim().replace(/[^\x20-\x7e]/g, "?") || "a process";
  return `${comm} (pid ${pid})`;
}
