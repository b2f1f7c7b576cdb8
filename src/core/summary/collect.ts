import { contextTokens } from "../usage.ts";
import { MAX_KEYS, MAX_PENDING, type Facts } from "./facts.ts";
import { isMeaningfulCommand } from "./goal.ts";
import { oneLine, push } from "./ring.ts";
import { addGeminiRecord, GEMINI_FILE_TOOLS, isGeminiRecord } from "./gemini.ts";
import { onTaskResult, onTaskUse } from "./tasks.ts";
import { queuedPrompt, readUserLine, rejection, tailLine } from "./requests.ts";
import { addFile, moveFiles } from "./files.ts";
import { onQueued, onRejected, onUserText } from "./user-turns.ts";

/** Tools whose successful calls modify a file. */
const FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** Adds one parsed transcript line (Claude Code) or chat-log record (Gemini CLI) to the facts (in place). */
export function addEntry(f: Facts, e: Record<string, any>): void {
  if (isGeminiRecord(e)) return addGeminiRecord(f, e);
  const queued = queuedPrompt(e);
  if (queued !== null) return onQueued(f, queued);
  const side = e.isSidechain === true;
  if (side) f.sidechainLines += 1;
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
  }
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

/** The text a user typed as a request (a slash command with its arguments), or null for anything else. */
export function userText(content: unknown): string | null {
  const line = readUserLine(content);
  return line.kind === "request" ? line.text : null;
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

/**
 * What a failure and a later success have in common: the file for file tools,
 * the command for Bash, else the tool and its target.
 */
export function errorKey(tool: string, input: Record<string, unknown>): string {
  if (FILE_TOOLS.has(tool) || tool === "Read" || GEMINI_FILE_TOOLS.has(tool) || tool === "read_file")
    return `file:${toolTarget(tool, input)}`;
  if (tool === "Bash" || tool === "run_shell_command") return `bash:${oneLine(String(input.command ?? ""), 160)}`;
  return `${tool}:${toolTarget(tool, input)}`;
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
  const key = errorKey(call.name, call.input);
  if (failed) return recordFailure(f, key, call.name, call.input, resultText(block.content));
  recordSuccess(f, key, call.name, call.input);
  if (FILE_TOOLS.has(call.name) || (call.name === "Bash" && isMeaningfulCommand(String(call.input.command ?? ""))))
    f.lastStep = f.lastSuccess;
  if (FILE_TOOLS.has(call.name)) addFile(f, call.name, call.input);
  if (call.name === "Bash") moveFiles(f, String(call.input.command ?? ""), cwd);
  onTaskResult(f, call.name, call.input, block.tool_use_id, resultText(block.content), structured);
}

/**
 * A failed tool call (either agent's transcript): listed among the errors, and the newest unresolved
 * error of its key (`errorKey`) until a later call with the same key succeeds.
 */
export function recordFailure(
  f: Facts,
  key: string,
  tool: string,
  input: Record<string, unknown>,
  output: string,
): void {
  const error = { tool, target: toolTarget(tool, input), message: oneLine(output, 240) };
  push(f.errors, error);
  f.unresolved.delete(key);
  if (f.unresolved.size >= MAX_KEYS) f.unresolved.delete(f.unresolved.keys().next().value!);
  f.unresolved.set(key, error);
}

/** A tool call that succeeded (either agent's transcript): counted, the last success, its key resolved. */
export function recordSuccess(f: Facts, key: string, tool: string, input: Record<string, unknown>): void {
  f.successes += 1;
  f.lastSuccess = describeTool(tool, input);
  f.unresolved.delete(key);
  if (f.succeeded.size < MAX_KEYS) f.succeeded.add(key);
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
