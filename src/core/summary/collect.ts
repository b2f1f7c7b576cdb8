import { addCompactionLine, compactSummaryRequest } from "../compaction.ts";
import { contextTokens } from "../usage.ts";
import { failureKey, noteFailure, noteSuccess, successKeys } from "./errors.ts";
import { MAX_PENDING, type Facts } from "./facts.ts";
import { isMeaningfulCommand } from "./goal.ts";
import { oneLine, push } from "./ring.ts";
import { lineAgent } from "../agents/index.ts";
import { addCodexLine } from "./codex.ts";
import { addGeminiRecord } from "./gemini.ts";
import { onTaskResult, onTaskUse } from "./tasks.ts";
import { queuedPrompt, rejection, tailLine } from "./requests.ts";
import { addFile, moveFiles } from "./files.ts";
import { onQueued, onRejected, onUserText } from "./user-turns.ts";
import { onTrackerCommand } from "./tracker.ts";

/** Tools whose successful calls modify a file. */
const FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/**
 * Adds one parsed transcript line to the facts (in place): the decoder is the line's client's
 * (`lineAgent`, core/agents/): a Gemini CLI chat-log record, a Codex CLI rollout line, else Claude Code's.
 */
export function addEntry(f: Facts, e: Record<string, any>): void {
  const agent = lineAgent(e);
  if (agent === "gemini") return addGeminiRecord(f, e);
  if (agent === "codex") return addCodexLine(f, e);
  const queued = queuedPrompt(e);
  if (queued !== null) return onQueued(f, queued);
  const side = e.isSidechain === true;
  if (side) f.sidechainLines += 1;
  if (!side && e.type === "system") addCompactionLine(f.compactionList, e);
  if (e.type === "system" && e.subtype === "compact_boundary") {
    f.compactions += 1;
    const post = Number(e.compactMetadata?.postTokens);
    if (Number.isFinite(post) && post >= 0) noteLatest(f, post, e.timestamp);
    return;
  }
  const content = e.message?.content;
  if (e.type === "assistant" && !side) noteUsage(f, e.message, e.timestamp);
  if (e.type === "assistant" && Array.isArray(content)) {
    for (const block of content) {
      if (block?.type === "tool_use" && typeof block.id === "string") onToolUse(f, block);
      else if (!side && block?.type === "text" && typeof block.text === "string" && block.text.trim()) {
        f.lastAgentText = tailLine(block.text, 4000);
        push(f.agentTexts, oneLine(block.text, 300));
        f.turnTexts += 1;
      }
    }
  } else if (e.type === "user") {
    if (Array.isArray(content))
      for (const block of content)
        if (block?.type === "tool_result")
          onToolResult(f, block, e.toolUseResult, typeof e.cwd === "string" ? e.cwd : "");
    if (!side && !e.isMeta && !e.isCompactSummary) onUserText(f, content);
    // the client's own handoff of the work before a compaction: what it says was asked for, the goal when
    // nothing before it is read (a session resumed from a compacted one)
    if (!side && e.isCompactSummary === true) {
      f.compactRequest = compactSummaryRequest(contentString(content)) ?? f.compactRequest;
      if (f.goal === null && f.compactRequest) f.goal = oneLine(f.compactRequest, 600);
    }
  }
}

/** A message's text: a string, or its text blocks joined. */
function contentString(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("\n");
}

/** Keeps the peak context and the newest model of main-chain requests (`<synthetic>` messages are not requests). */
function noteUsage(f: Facts, message: Record<string, any> | undefined, timestamp: unknown): void {
  if (!message || message.model === "<synthetic>" || !message.usage || typeof message.usage !== "object") return;
  const tokens = contextTokens(message.usage);
  f.peakTokens = Math.max(f.peakTokens, tokens);
  noteLatest(f, tokens, timestamp);
  if (typeof message.model === "string") f.model = message.model;
}

/** The context of the newest request and when its line was written. */
export function noteLatest(f: Facts, tokens: number, timestamp: unknown): void {
  f.latestTokens = tokens;
  const at = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
  f.latestAtMs = Number.isFinite(at) ? at : 0;
}

/** A short description of a tool call: `Edit src/a.ts`, `Bash: npm test`. */
function describeTool(name: string, input: Record<string, unknown>): string {
  const target = toolTarget(name, input);
  return target ? `${name} ${target}` : name;
}

/** The argument that says what a tool call worked on. */
function toolTarget(name: string, input: Record<string, unknown>): string {
  const s = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  if (name === "Bash" || name === "run_shell_command") return oneLine(s("command"), 160);
  if (name === "TaskUpdate") return `#${s("taskId")}${s("status") ? ` → ${s("status")}` : ""}`;
  if (name === "TaskCreate") return oneLine(s("subject"), 120);
  return oneLine(
    s("file_path") || s("notebook_path") || s("path") || s("pattern") || s("url") || s("description"),
    160,
  );
}

// --- internal ---

function onToolUse(f: Facts, block: Record<string, any>): void {
  const input = block.input && typeof block.input === "object" ? (block.input as Record<string, unknown>) : {};
  const name = typeof block.name === "string" ? block.name : "unknown";
  if (f.pending.size >= MAX_PENDING) f.pending.delete(f.pending.keys().next().value!);
  f.pending.set(block.id, { name, input });
  onTaskUse(f, name, input, block.id);
}

function onToolResult(f: Facts, block: Record<string, any>, structured: unknown, cwd: string): void {
  const call = f.pending.get(block.tool_use_id);
  if (!call) return;
  f.pending.delete(block.tool_use_id);
  f.toolResults += 1;
  const failed = block.is_error === true;
  const turnedDown = failed ? rejection(resultText(block.content)) : null;
  if (turnedDown) return onRejected(f, call.name, call.input, describeTool(call.name, call.input), turnedDown.feedback);
  if (call.name === "Bash") push(f.commands, { command: oneLine(String(call.input.command ?? ""), 160), ok: !failed });
  if (call.name === "Bash" && !failed)
    f.tracker = onTrackerCommand(f.tracker, String(call.input.command ?? ""), resultText(block.content));
  if (failed) return recordFailure(f, call.name, call.input, resultText(block.content));
  recordSuccess(f, call.name, call.input, resultText(block.content));
  if (FILE_TOOLS.has(call.name) || (call.name === "Bash" && isMeaningfulCommand(String(call.input.command ?? ""))))
    f.lastStep = f.lastSuccess;
  if (FILE_TOOLS.has(call.name)) addFile(f, call.name, call.input);
  if (call.name === "Bash") moveFiles(f, String(call.input.command ?? ""), cwd);
  onTaskResult(f, call.name, call.input, block.tool_use_id, resultText(block.content), structured);
}

/**
 * A failed tool call (either agent's transcript): listed among the errors, and the newest
 * attempt of its intent until a later call achieves it (errors.ts).
 */
export function recordFailure(f: Facts, tool: string, input: Record<string, unknown>, output: string): void {
  const error = { tool, target: toolTarget(tool, input), message: oneLine(output, 240) };
  push(f.errors, error);
  noteFailure(f, failureKey(tool, input, output), error);
}

/** A tool call that succeeded (either agent's transcript): counted, the last success, what it achieved noted. */
export function recordSuccess(f: Facts, tool: string, input: Record<string, unknown>, output = ""): void {
  f.successes += 1;
  f.lastSuccess = describeTool(tool, input);
  noteSuccess(f, successKeys(tool, input, output));
}

/** The text of a tool_result's content (a string or text blocks). */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .filter((b) => b?.type === "text")
      .map((b) => String(b.text ?? ""))
      .join("\n");
  return "";
}
