/**
 * The agent client among this process's ancestors, if any: every ancestor up to pid 1, from
 * /proc, else from one `ps` listing (macOS). Typed commands only (`ctx trust`), never a hook.
 */
import { spawnSync } from "node:child_process";
import { agentClientOf } from "../../core/agents/process.ts";
import { readProc } from "./proc.ts";

/** An ancestor that is an agent client. */
export interface AgentAncestor {
  pid: number;
  client: string;
}

/**
 * The nearest ancestor of `pid` that is an agent client (core/agents/process.ts), undefined when
 * none is; `unknown` when the ancestry cannot be read at all (no /proc and no ps).
 */
export function agentAncestor(pid = process.pid, procRoot = "/proc"): AgentAncestor | undefined | "unknown" {
  const table = readProc(`${procRoot}/${pid}/stat`) !== undefined ? procTable(procRoot) : psTable();
  if (!table) return "unknown";
  const seen = new Set<number>();
  let at = table(pid)?.ppid;
  while (at !== undefined && at > 1 && !seen.has(at)) {
    seen.add(at);
    const p = table(at);
    if (!p) break;
    const client = agentClientOf(p.comm, p.argv);
    if (client) return { pid: at, client };
    at = p.ppid;
  }
  return undefined;
}

// --- internal ---

interface Proc {
  ppid: number;
  comm: string;
  argv: string[];
}

type Table = (pid: number) => Proc | undefined;

function procTable(procRoot: string): Table {
  return (pid) => {
    const stat = readProc(`${procRoot}/${pid}/stat`);
    if (!stat) return undefined;
    const close = stat.lastIndexOf(")");
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    const argv = (readProc(`${procRoot}/${pid}/cmdline`) ?? "").split("\0").filter((w) => w !== "");
    return { ppid: Number.isInteger(ppid) ? ppid : 0, comm: stat.slice(stat.indexOf("(") + 1, close), argv };
  };
}

/** Every process from one `ps` run (no /proc): its parent, name and command line split on spaces. */
function psTable(): Table | undefined {
  const r = spawnSync("ps", ["-A", "-o", "pid=,ppid=,comm=,args="], { encoding: "utf8", timeout: 5000 });
  if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
  const all = new Map<number, Proc>();
  for (const line of r.stdout.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s*(.*)$/.exec(line);
    if (m) all.set(Number(m[1]), { ppid: Number(m[2]), comm: m[3]!.split("/").pop() ?? "", argv: m[4]!.split(/\s+/) });
  }
  return (pid) => all.get(pid);
}
