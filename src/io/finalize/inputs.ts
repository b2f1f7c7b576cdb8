import { join } from "node:path";
import {
  addSubagentEntry,
  emptySubagentCalls,
  emptySubagentWork,
  isSubagentRun,
  noteSubagentCall,
  type SubagentCalls,
  type SubagentWork,
} from "../../core/summary/subagents.ts";
import { addEntry } from "../../core/summary/collect.ts";
import type { Facts } from "../../core/summary/facts.ts";
import { emptyTranscriptWindow, noteWindowLine, type TranscriptWindow } from "../../core/window-evidence.ts";
import { subagentDir } from "../../core/subagent.ts";
import type { SummaryTwin } from "../../core/summary/chain.ts";
import { parseTaskFile } from "../../core/summary/tasks.ts";
import type { TaskItem } from "../../core/summary/facts.ts";
import { fileStamp } from "../../core/track/stamp.ts";
import { createExclusive } from "../fs/write.ts";
import { readJsonFile } from "../fs/read.ts";
import { layout, STATE_NAMES } from "../../core/layout.ts";
import { loadState } from "../session/store.ts";
import { streamEntries } from "../transcript/stream.ts";
import { taskListDir } from "../session/task-list.ts";
import type { Env } from "../../core/deps.ts";
import { listDir } from "../fs/list-dir.ts";
import { readWrittenTwin } from "../written.ts";

/**
 * Tasks the client stored in `~/.claude/tasks/<list>/<n>.json` (CLAUDE_CONFIG_DIR honoured);
 * the list is CLAUDE_CODE_TASK_LIST_ID when the session had one, else the session id.
 */
export function readTaskFiles(env: Env, listId: string): TaskItem[] {
  const dir = taskListDir(env, listId);
  if (!dir) return [];
  const names = listDir(dir)
    .filter((n) => /^\w+\.json$/.test(n))
    .slice(0, 1000);
  return names.flatMap((n) => {
    const read = readJsonFile<unknown>(join(dir, n), { maxBytes: 1024 * 1024 });
    const task = read.status === "ok" ? parseTaskFile(read.value) : undefined;
    return task ? [task] : [];
  });
}

/** The /clear chain ending at `sessionId`: previous sessions first (at most 50). */
export function sessionChain(root: string, sessionId: string, nowMs: number): string[] {
  const chain = [sessionId];
  let current = loadState(layout(root).stateFile(sessionId) ?? "", nowMs);
  while (current?.previous_session_id && chain.length < 50 && !chain.includes(current.previous_session_id)) {
    chain.unshift(current.previous_session_id);
    current = loadState(layout(root).stateFile(current.previous_session_id) ?? "", nowMs);
  }
  return chain;
}

/**
 * The newest summary an earlier session of `chain` (all but the last) left,
 * with its twin: the walk goes back past sessions that were never finalized.
 * Only a twin ctx wrote as it is (io/written.ts) is carried: one a tool rewrote is not.
 */
export function previousTwin(
  env: Env,
  root: string,
  chain: string[],
  nowMs: number,
): { twin: SummaryTwin; summaryPath: string } | undefined {
  for (const id of chain.slice(0, -1).reverse()) {
    const s = loadState(layout(root).stateFile(id) ?? "", nowMs);
    if (!s?.finalized_stamp) continue;
    const summaryPath = layout(root).summary(s.task_id, s.finalized_stamp);
    const twin = readWrittenTwin(env, summaryPath);
    if (twin) return { twin, summaryPath };
  }
  return undefined;
}

/**
 * The stamp for a new record: now, moved on by a second while another session
 * already holds `session-<stamp>.json`. The name is claimed by creating it
 * exclusively, so parallel finalizes never share (and overwrite) one record.
 */
export function freeStamp(dir: string, sessionId: string, nowMs: number): string {
  for (let i = 0; i < 600; i++) {
    const stamp = fileStamp(nowMs + i * 1000);
    const path = join(dir, `${STATE_NAMES.record(stamp)}.json`);
    if (claim(path, sessionId)) return stamp;
    const read = readJsonFile<{ session_id?: unknown }>(path, { maxBytes: 4 * 1024 * 1024 });
    if (read.status === "ok" && read.value?.session_id === sessionId) return stamp;
  }
  return fileStamp(nowMs);
}

/**
 * Claims a record name for `sessionId` by creating it exclusively (O_EXCL): of
 * several finalizes running at once, exactly one gets each name. The placeholder
 * names the session until the record is written over it. False when taken.
 */
function claim(path: string, sessionId: string): boolean {
  return createExclusive(
    path,
    `${JSON.stringify({ version: 1, session_id: sessionId })}
`,
  );
}

/** What the session's subagents did: their transcripts beside the parent's (at most 200 of them). */
export function readSubagentWork(transcriptPath: string | undefined, sessionId: string): SubagentWork {
  const work = emptySubagentWork();
  const dir = subagentDir(transcriptPath, sessionId);
  if (!dir) return work;
  const names = listDir(dir).filter(isSubagentRun).sort().slice(0, 200);
  for (const name of names) if (streamEntries(join(dir, name), (e) => addSubagentEntry(work, e))) work.runs += 1;
  return work;
}

/** What one pass over the session's transcript gathered beside the facts. */
export interface TranscriptPass {
  /** False when the transcript could not be read. */
  ok: boolean;
  /** What it tells about the window (core/window-evidence.ts). */
  seen: TranscriptWindow;
  /** The subagents its main chain started (core/summary/subagents.ts). */
  started: SubagentCalls;
}

/** Streams the transcript once into `facts`, its window evidence and its subagent calls. */
export function readTranscriptPass(transcript: string | undefined, facts: Facts): TranscriptPass {
  const seen = emptyTranscriptWindow();
  const started = emptySubagentCalls();
  const ok =
    !!transcript &&
    !!streamEntries(
      transcript,
      (e, n) => (addEntry(facts, e, n), noteWindowLine(seen, e), noteSubagentCall(started, e)),
      { lastLine: true },
    );
  return { ok, seen, started };
}
