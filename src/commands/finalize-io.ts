import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { homeDir } from "../core/paths.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { addSubagentEntry, emptySubagentWork, type SubagentWork } from "../core/summary/subagents.ts";
import { subagentDir } from "../core/subagent.ts";
import { parseTaskFile } from "../core/summary/tasks.ts";
import type { TaskItem } from "../core/summary/facts.ts";
import type { PauseEntry } from "../core/track/pause.ts";
import { fileStamp } from "../core/track/stamp.ts";
import { readFileSafe, readJsonFile } from "../io/fsx.ts";
import { loadState, recordsDir, statePath } from "../io/session-store.ts";
import { streamEntries } from "../io/transcript-stream.ts";

type Env = Record<string, string | undefined>;

/** Tasks the client stored in `~/.claude/tasks/<session>/<n>.json` (CLAUDE_CONFIG_DIR honoured). */
export function readTaskFiles(env: Env, sessionId: string): TaskItem[] {
  if (!isValidSessionId(sessionId)) return [];
  const base = env.CLAUDE_CONFIG_DIR?.startsWith("/") ? env.CLAUDE_CONFIG_DIR : join(homeDir(env), ".claude");
  const dir = join(base, "tasks", sessionId);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /^\w+\.json$/.test(n))
      .slice(0, 1000);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const read = readJsonFile<unknown>(join(dir, n), { maxBytes: 1024 * 1024 });
    const task = read.status === "ok" ? parseTaskFile(read.value) : undefined;
    return task ? [task] : [];
  });
}

/** The /clear chain ending at `sessionId`: previous sessions first (at most 50). */
export function sessionChain(root: string, sessionId: string, nowMs: number): string[] {
  const chain = [sessionId];
  let current = loadState(statePath(root, sessionId) ?? "", nowMs);
  while (current?.previous_session_id && chain.length < 50 && !chain.includes(current.previous_session_id)) {
    chain.unshift(current.previous_session_id);
    current = loadState(statePath(root, current.previous_session_id) ?? "", nowMs);
  }
  return chain;
}

/** The handoff summaries that earlier sessions of `chain` (all but the last) left, oldest first. */
export function earlierSummaries(root: string, chain: string[], nowMs: number): string[] {
  const out: string[] = [];
  for (const id of chain.slice(0, -1)) {
    const s = loadState(statePath(root, id) ?? "", nowMs);
    const path = s?.finalized_stamp
      ? join(recordsDir(root), `summary-${s.task_id}-${s.finalized_stamp}.md`)
      : undefined;
    if (path && existsSync(path)) out.push(path);
  }
  return out;
}

/** `git status --short` lines of `dir`, or null when it is not in a repository (2 s at most). */
export function gitStatus(dir: string): string[] | null {
  try {
    const r = spawnSync("git", ["-C", dir, "status", "--short"], {
      encoding: "utf8",
      timeout: 2000,
      maxBuffer: 4 * 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
    });
    if (r.status !== 0 || typeof r.stdout !== "string") return null;
    return r.stdout.split("\n").filter((l) => l.trim() !== "");
  } catch {
    return null;
  }
}

/**
 * The stamp for a new record: now, moved on by a second while another session
 * already holds `session-<stamp>.json`.
 */
export function freeStamp(dir: string, sessionId: string, nowMs: number): string {
  for (let i = 0; i < 600; i++) {
    const stamp = fileStamp(nowMs + i * 1000);
    const path = join(dir, `session-${stamp}.json`);
    if (!existsSync(path)) return stamp;
    const read = readJsonFile<{ session_id?: unknown }>(path, { maxBytes: 4 * 1024 * 1024 });
    if (read.status === "ok" && read.value?.session_id === sessionId) return stamp;
  }
  return fileStamp(nowMs);
}

/** The pause log's entries: how many, and the newest `keep` parsed ones. */
export function readPauseLog(
  path: string,
  keep: number,
): { text: string | undefined; count: number; recent: PauseEntry[] } {
  const text = readFileSafe(path, { maxBytes: 256 * 1024 * 1024 });
  if (text === undefined) return { text, count: 0, recent: [] };
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const recent = lines.slice(-keep).flatMap((l) => {
    try {
      return [JSON.parse(l) as PauseEntry];
    } catch {
      return [];
    }
  });
  return { text, count: lines.length, recent };
}

/** What the session's subagents did: their transcripts beside the parent's (at most 200 of them). */
export function readSubagentWork(transcriptPath: string | undefined, sessionId: string): SubagentWork {
  const work = emptySubagentWork();
  const dir = subagentDir(transcriptPath, sessionId);
  if (!dir) return work;
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /^agent-[A-Za-z0-9_-]{1,128}\.jsonl$/.test(n))
      .sort()
      .slice(0, 200);
  } catch {
    return work;
  }
  for (const name of names) if (streamEntries(join(dir, name), (e) => addSubagentEntry(work, e))) work.runs += 1;
  return work;
}
