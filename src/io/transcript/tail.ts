import { AGENTS, agent as adapter, decodeLine, type AgentName } from "../../core/agents/index.ts";
import { parseObject } from "../../core/json.ts";
import { sleepSyncCounted } from "../fs/wait.ts";
import { withReadFile } from "../fs/read.ts";
import { sys } from "../fs/sys.ts";

/** The latest context usage found in a transcript. */
export interface TailUsage {
  /** Tokens in the context after the latest main-chain request. */
  usedTokens: number;
  /** The model of that request, when known. */
  model?: string;
  /** True when the newest relevant line is a compaction boundary (usage is the post-compaction size). */
  compacted?: boolean;
  /** The client version the line records (Claude Code's `version`), when known. */
  clientVersion?: string;
  /** When the line was written (its `timestamp`, ms), when it says. */
  atMs?: number;
  /** The window the transcript itself records (Codex CLI's `model_context_window`), when it does. */
  windowSize?: number;
  /** The client whose transcript it is (core/agents/). */
  agent?: AgentName;
}

/** What one line gives: a whole reading (Claude Code, Gemini CLI) or a part of one (a Codex rollout). */
type LineFacts = Partial<TailUsage>;

const CHUNK = 256 * 1024;
/** Every client's needles: a line holding none of them has no usage and is not parsed. */
const NEEDLES = [...new Set(AGENTS.flatMap((a) => a.transcript.needles))].map((s) => Buffer.from(s));

/**
 * Finds the latest main-chain usage by reading the transcript backwards from
 * its end, at most `maxBytes`, so the cost does not grow with the file.
 * Sidechain (subagent) lines and `<synthetic>` messages are skipped, unless
 * `sidechain` is set: a subagent's own transcript holds only sidechain lines.
 * Understands each client's transcript: the line goes to the decoder of the client that claims it
 * (`decodeLine`, core/agents/); a Codex rollout is read on to the window and model its older lines record.
 */
export function latestUsage(path: string, maxBytes: number, sidechain = false): TailUsage | undefined {
  return withReadFile(path, (fd, st) => (st.isFile ? scanBackwards(fd, st.size, maxBytes, sidechain) : undefined));
}

/** Reads one transcript line and returns its usage if it is a relevant one (sidechain lines only with `sidechain`). */
export function usageOfLine(line: string, sidechain = false): TailUsage | undefined {
  const facts = factsOfLine(line, sidechain);
  return facts?.usedTokens !== undefined ? (facts as TailUsage) : undefined;
}

function factsOfLine(line: string, sidechain: boolean): LineFacts | undefined {
  const entry = parseObject(line);
  const ev = entry && decodeLine(entry);
  if (!ev) return undefined;
  const facts = adapter(ev.agent).transcript.usage(ev.record, sidechain);
  return facts ? { ...facts, agent: ev.agent } : undefined;
}

/**
 * Adds an older line's facts to what the newer lines gave (the newest usage wins); true once the
 * reading is whole: at once for most clients, when the adapter's `whole` says for a rollout.
 */
function absorb(acc: LineFacts, found: LineFacts): boolean {
  if (acc.usedTokens === undefined && found.usedTokens !== undefined) {
    const { windowSize: _w, model: _m, ...usage } = found;
    Object.assign(acc, usage);
  }
  acc.windowSize ??= found.windowSize;
  acc.model ??= found.model;
  acc.agent ??= found.agent;
  if (acc.usedTokens === undefined || !acc.agent) return false;
  return adapter(acc.agent).transcript.whole?.(acc) ?? true;
}

/** How a wait for a transcript line ended. */
export type WaitOutcome = "found" | "absent" | "missing";

/**
 * Waits until `needle` (a tool_use id) shows in the last `windowBytes` of the
 * transcript, polling every 10 ms for at most `waitMs`. Claude Code flushes
 * its transcript in batches, so a PostToolUse hook can run before the line of
 * the request that called the tool is written; in a session's first hook the
 * file may not exist yet. `waitMissing: false` gives up at once on a missing
 * file. "missing" means the file never showed up.
 */
export function waitForLine(
  path: string,
  needle: string,
  waitMs: number,
  now: () => number,
  waitMissing = true,
  windowBytes = 2 * 1024 * 1024,
): WaitOutcome {
  const want = Buffer.from(needle);
  const deadline = now() + waitMs;
  for (;;) {
    const found = tailIncludes(path, want, windowBytes);
    if (found === true) return "found";
    if ((found === undefined && !waitMissing) || now() >= deadline) return found === undefined ? "missing" : "absent";
    sleepSyncCounted(10);
  }
}

/** Whether the tail holds `needle`: true, false, or undefined when there is no readable regular file. */
function tailIncludes(path: string, needle: Buffer, windowBytes: number): boolean | undefined {
  return withReadFile(path, (fd, st) => {
    if (!st.isFile) return undefined;
    const len = Math.min(st.size, windowBytes);
    const buf = Buffer.allocUnsafe(len);
    const n = sys().pread(fd, buf, 0, len, st.size - len);
    return buf.subarray(0, n).includes(needle);
  });
}

function scanBackwards(fd: number, size: number, maxBytes: number, sidechain: boolean): TailUsage | undefined {
  const floor = Math.max(0, size - maxBytes);
  const acc: LineFacts = {};
  const done = (): TailUsage | undefined => (acc.usedTokens !== undefined ? (acc as TailUsage) : undefined);
  let pos = size;
  let carry = Buffer.alloc(0); // the start of a line whose beginning is not read yet
  while (pos > floor) {
    const len = Math.min(CHUNK, pos - floor);
    pos -= len;
    const chunk = Buffer.allocUnsafe(len);
    const n = sys().pread(fd, chunk, 0, len, pos);
    const buf = carry.length ? Buffer.concat([chunk.subarray(0, n), carry]) : chunk.subarray(0, n);
    let end = buf.length;
    for (let nl = buf.lastIndexOf(10, end - 1); nl >= 0; nl = buf.lastIndexOf(10, end - 1)) {
      const found = lineFacts(buf, nl + 1, end, sidechain);
      if (found && absorb(acc, found)) return done();
      end = nl;
      if (end === 0) break;
    }
    carry = Buffer.from(buf.subarray(0, end));
  }
  const first = pos === 0 && carry.length ? lineFacts(carry, 0, carry.length, sidechain) : undefined;
  if (first) absorb(acc, first);
  return done();
}

function lineFacts(buf: Buffer, start: number, end: number, sidechain: boolean): LineFacts | undefined {
  if (end - start < 2) return undefined;
  const line = buf.subarray(start, end);
  if (!NEEDLES.some((needle) => line.includes(needle))) return undefined;
  return factsOfLine(line.toString("utf8"), sidechain);
}
