import { addCompactionLine } from "../compaction.ts";
import { contextTokens } from "../usage.ts";
import { MAX_PENDING, type Facts } from "./facts.ts";
import { isMeaningfulCommand } from "./goal.ts";
import { oneLine, push } from "./ring.ts";
import { decodeLine } from "../agents/index.ts";
import { SUMMARY_DECODERS } from "../agents/summaries.ts";
import { onTaskResult, onTaskUse } from "./tasks.ts";
import { rejection, tailLine } from "./requests.ts";
import { addFile, moveFiles } from "./files.ts";
import { onRejected, onUserText } from "./user-turns.ts";
import { onTrackerCommand } from "./tracker.ts";
import { onAgentActs, onQueueLine } from "./queue.ts";
import { onBackgroundResult, onNotice } from "./open-work.ts";
import { onFirstUserLine } from "./mid-story.ts";
import { noteRefusal, noteToolsLine } from "../plan-tools.ts";
import { notePlanText } from "./plan.ts";
import { describeTool, noteStep, recordFailure, recordSuccess, resultText } from "./steps.ts";
import { asObject, fieldsOf } from "../json.ts";

/** Tools whose successful calls modify a file. */
const FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/**
 * Adds one parsed transcript line to the facts (in place) with the decoder of the client that claims
 * it (`decodeLine`, core/agents/; its decoder in `SUMMARY_DECODERS`); a line no client claims is only
 * counted (`unclaimedLines`).
 */
export function addEntry(f: Facts, e: Record<string, unknown>, line = 0): void {
  f.line = line;
  const at = typeof e.timestamp === "string" ? Date.parse(e.timestamp) : Number.NaN;
  if (Number.isFinite(at)) f.lineAt = at;
  const ev = decodeLine(e);
  if (ev) SUMMARY_DECODERS[ev.agent](f, ev.record);
  else f.unclaimedLines += 1;
}

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
      if (block.type === "tool_use" && typeof block.id === "string") onToolUse(f, block, block.id);
      else if (!side && block.type === "text" && typeof block.text === "string" && block.text.trim()) {
        f.lastAgentText = tailLine(block.text, 4000);
        notePlanText(f, block.text);
        push(f.agentTexts, oneLine(block.text, 300));
        push(f.decisionLines, f.line);
        f.turnTexts += 1;
      }
    }
  } else if (e.type === "user") {
    if (Array.isArray(content))
      for (const item of content) {
        const block = fieldsOf(item);
        if (block.type === "tool_result" && typeof block.tool_use_id === "string")
          onToolResult(f, block, block.tool_use_id, e.toolUseResult, typeof e.cwd === "string" ? e.cwd : "", side);
      }
    if (side) return;
    onNotice(f, content);
    if (onFirstUserLine(f, e)) return;
    if (!e.isMeta && !e.isCompactSummary) onUserText(f, content);
  }
}

/** A message's text: a string, or its text blocks joined. */
function contentString(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("\n");
}

/** Keeps the peak context and the newest model of main-chain requests (`<synthetic>` messages are not requests). */
function noteUsage(f: Facts, message: Record<string, unknown> | undefined, timestamp: unknown): void {
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
  _side = false,
): void {
  const call = f.pending.get(id);
  if (!call) return;
  f.pending.delete(id);
  f.toolResults += 1;
  const failed = block.is_error === true;
  const turnedDown = failed ? rejection(resultText(block.content)) : null;
  if (turnedDown) return onRejected(f, call.name, call.input, describeTool(call.name, call.input), turnedDown.feedback);
  if (call.name === "Bash") push(f.commands, { command: oneLine(String(call.input.command ?? ""), 160), ok: !failed });
  if (call.name === "Bash" && !failed)
    f.tracker = onTrackerCommand(f.tracker, String(call.input.command ?? ""), resultText(block.content));
  const lines = call.line ? [call.line, f.line] : [f.line];
  if (failed) noteRefusal(f.tools, resultText(block.content));
  if (failed) return recordFailure(f, call.name, call.input, resultText(block.content), lines);
  recordSuccess(f, call.name, call.input, resultText(block.content));
  onBackgroundResult(f, id, call.name, call.input, resultText(block.content));
  if (FILE_TOOLS.has(call.name) || (call.name === "Bash" && isMeaningfulCommand(String(call.input.command ?? ""))))
    noteStep(f);
  if (FILE_TOOLS.has(call.name)) addFile(f, call.name, call.input);
  if (call.name === "Bash") moveFiles(f, String(call.input.command ?? ""), cwd);
  onTaskResult(f, call.name, call.input, id, resultText(block.content), structured);
}
