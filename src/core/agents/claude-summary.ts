/**
 * Claude Code's transcript lines in the summary's facts: its messages' text and tool calls (`tool_use`
 * and their `tool_result`), the usage of main-chain requests, compactions, queued prompts and the
 * session's tools. Claude Code's tool and field names are the summary's own: other clients' decoders
 * record their calls under them.
 */
import { addCompactionLine } from "../compaction.ts";
import { asObject, fieldsOf } from "../json.ts";
import { noteRefusal, noteToolsLine } from "../plan-tools.ts";
import { noteLatest } from "../summary/collect.ts";
import { SHELL_TOOLS } from "../summary/errors.ts";
import { MAX_PENDING, type Facts } from "../summary/facts.ts";
import { addFile, moveFiles } from "../summary/files.ts";
import { isMeaningfulCommand } from "../summary/goal.ts";
import { onFirstUserLine } from "../summary/mid-story.ts";
import { onBackgroundResult, onNotice } from "../summary/open-work.ts";
import { notePlanText } from "../summary/plan.ts";
import { onAgentActs, onQueueLine } from "../summary/queue.ts";
import { rejection, tailLine } from "../summary/requests.ts";
import { oneLine, push } from "../summary/ring.ts";
import { describeTool, noteStep, recordFailure, recordSuccess, resultText } from "../summary/steps.ts";
import { onTaskResult, onTaskUse } from "../summary/tasks.ts";
import { noteCommand, onTrackerStep } from "../summary/command-steps.ts";
import { noteAgentWords } from "../summary/remaining.ts";
import { onAnswered, onRejected, onUserText } from "../summary/user-turns.ts";
import { contextTokens } from "../usage.ts";

/** Tools whose successful calls modify a file. */
const FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** A Claude Code transcript line (its decoder in `SUMMARY_DECODERS`). */
export function addClaudeLine(f: Facts, e: Record<string, unknown>): void {
  if (onQueueLine(f, e) || noteToolsLine(f.tools, e)) return;
  const side = e.isSidechain === true;
  if (side) f.sidechainLines += 1;
  if (!side && e.type === "system") addCompactionLine(f.compactionList, e);
  if (e.type === "system" && e.subtype === "compact_boundary") {
    f.compactions += 1;
    const post = Number(fieldsOf(e.compactMetadata).postTokens);
    if (Number.isFinite(post) && post >= 0) noteLatest(f, post, e.timestamp);
    return;
  }
  const message = fieldsOf(e.message);
  const content: unknown = message.content;
  if (e.type === "assistant" && !side) {
    noteUsage(f, asObject(e.message), e.timestamp);
    if (message.model !== "<synthetic>") {
      f.lastAgentLine = f.line;
      onAgentActs(f);
    }
  }
  if (e.type === "assistant" && Array.isArray(content)) {
    for (const item of content) {
      const block = fieldsOf(item);
      if (block.type === "tool_use" && typeof block.id === "string") {
        if (!side) f.lastToolLine = f.line;
        onToolUse(f, block, block.id);
      } else if (!side && block.type === "text" && typeof block.text === "string" && block.text.trim()) {
        f.lastAgentText = tailLine(block.text, 4000);
        notePlanText(f, block.text);
        noteAgentWords(f, block.text);
        push(f.agentTexts, oneLine(block.text, 300));
        push(f.decisionLines, f.line);
        f.turnTexts += 1;
      }
    }
  } else if (e.type === "user") {
    if (Array.isArray(content))
      for (const item of content) {
        const block = fieldsOf(item);
        if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          if (!side && f.pending.has(block.tool_use_id)) f.lastToolLine = f.line;
          onToolResult(f, block, block.tool_use_id, e.toolUseResult, typeof e.cwd === "string" ? e.cwd : "", side);
        }
      }
    if (side) return;
    onNotice(f, content);
    if (onFirstUserLine(f, e)) return;
    if (!e.isMeta && !e.isCompactSummary) onUserText(f, content);
  }
}

/** Keeps the peak context and the newest model of main-chain requests (`<synthetic>` messages are not requests). */
function noteUsage(f: Facts, message: Record<string, unknown> | undefined, timestamp: unknown): void {
  if (!message || message.model === "<synthetic>" || !message.usage || typeof message.usage !== "object") return;
  const tokens = contextTokens(message.usage);
  f.peakTokens = Math.max(f.peakTokens, tokens);
  noteLatest(f, tokens, timestamp);
  if (typeof message.model === "string") f.model = message.model;
}

// --- internal ---

function onToolUse(f: Facts, block: Record<string, unknown>, id: string): void {
  const input = block.input && typeof block.input === "object" ? (block.input as Record<string, unknown>) : {};
  const name = typeof block.name === "string" ? block.name : "unknown";
  if (f.pending.size >= MAX_PENDING) f.pending.delete(f.pending.keys().next().value!);
  f.pending.set(id, { name, input, line: f.line });
  if (name === "ExitPlanMode" && typeof input.plan === "string") notePlanText(f, input.plan);
  onTaskUse(f, name, input, id);
}

function onToolResult(
  f: Facts,
  block: Record<string, unknown>,
  id: string,
  structured: unknown,
  cwd: string,
  side = false,
): void {
  const call = f.pending.get(id);
  if (!call) return;
  f.pending.delete(id);
  f.toolResults += 1;
  const failed = block.is_error === true;
  const turnedDown = failed ? rejection(resultText(block.content)) : null;
  if (turnedDown) return onRejected(f, call.name, call.input, describeTool(call.name, call.input), turnedDown.feedback);
  const lines = call.line ? [call.line, f.line] : [f.line];
  const shell = SHELL_TOOLS.has(call.name);
  if (shell) noteCommand(f, String(call.input.command ?? ""), !failed, lines);
  if (shell && !failed) onTrackerStep(f, String(call.input.command ?? ""), resultText(block.content));
  if (failed) noteRefusal(f.tools, resultText(block.content));
  if (failed) return recordFailure(f, call.name, call.input, resultText(block.content), lines);
  recordSuccess(f, call.name, call.input, resultText(block.content));
  if (call.name === "AskUserQuestion" && !side) onAnswered(f, resultText(block.content), structured);
  onBackgroundResult(f, id, call.name, call.input, resultText(block.content));
  if (FILE_TOOLS.has(call.name) || (shell && isMeaningfulCommand(String(call.input.command ?? "")))) noteStep(f);
  if (FILE_TOOLS.has(call.name)) addFile(f, call.name, call.input);
  if (call.name === "Bash") moveFiles(f, String(call.input.command ?? ""), cwd);
  onTaskResult(f, call.name, call.input, id, resultText(block.content), structured);
}
