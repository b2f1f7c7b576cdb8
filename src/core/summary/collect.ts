import { addCompactionLine } from "../compaction.ts";
import { contextTokens } from "../usage.ts";
import { MAX_PENDING, type Facts } from "./facts.ts";
import { isMeaningfulCommand } from "./goal.ts";
import { oneLine, push } from "./ring.ts";
import { decodeLine, type AgentName } from "../agents/index.ts";
import { addCodexLine } from "./codex.ts";
import { addOpenCodeRow } from "../agents/opencode-summary.ts";
import { addGeminiRecord } from "./gemini.ts";
import { onTaskResult, onTaskUse } from "./tasks.ts";
import { rejection, tailLine } from "./requests.ts";
import { addFile, moveFiles } from "./files.ts";
import { onAnswered, onRejected, onUserText } from "./user-turns.ts";
import { noteCommand, onTrackerStep } from "./command-steps.ts";
import { onAgentActs, onQueueLine } from "./queue.ts";
import { onBackgroundResult, onNotice } from "./open-work.ts";
import { onFirstUserLine } from "./mid-story.ts";
import { noteRefusal, noteToolsLine } from "../plan-tools.ts";
import { notePlanText } from "./plan.ts";
import { noteAgentWords } from "./remaining.ts";
import { describeTool, noteStep, recordFailure, recordSuccess, resultText } from "./steps.ts";

/** Tools whose successful calls modify a file. */
const FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** Each client's summary decoder: what one of its transcript lines adds to the facts. */
const DECODERS: { readonly [K in AgentName]: (f: Facts, e: Record<string, any>) => void } = {
  claude: addClaudeLine,
  gemini: addGeminiRecord,
  codex: addCodexLine,
  opencode: addOpenCodeRow,
};

/**
 * Adds one parsed transcript line to the facts (in place) with the decoder of the client that claims
 * it (`decodeLine`, core/agents/); a line no client claims is only counted (`unclaimedLines`).
 */
export function addEntry(f: Facts, e: Record<string, unknown>, line = 0): void {
  f.line = line;
  const at = typeof e.timestamp === "string" ? Date.parse(e.timestamp) : Number.NaN;
  if (Number.isFinite(at)) f.lineAt = at;
  const ev = decodeLine(e);
  if (ev) DECODERS[ev.agent](f, ev.record);
  else f.unclaimedLines += 1;
}

/** A Claude Code transcript line. */
function addClaudeLine(f: Facts, e: Record<string, any>): void {
  if (onQueueLine(f, e) || noteToolsLine(f.tools, e)) return;
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
  if (e.type === "assistant" && !side) {
    noteUsage(f, e.message, e.timestamp);
    if (e.message?.model !== "<synthetic>") {
      f.lastAgentLine = f.line;
      onAgentActs(f);
    }
  }
  if (e.type === "assistant" && Array.isArray(content)) {
    for (const block of content) {
      if (block?.type === "tool_use" && typeof block.id === "string") {
        if (!side) f.lastToolLine = f.line;
        onToolUse(f, block);
      } else if (!side && block?.type === "text" && typeof block.text === "string" && block.text.trim()) {
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
      for (const block of content)
        if (block?.type === "tool_result") {
          if (!side && f.pending.has(block.tool_use_id)) f.lastToolLine = f.line;
          onToolResult(f, block, e.toolUseResult, typeof e.cwd === "string" ? e.cwd : "", side);
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

// --- internal ---

function onToolUse(f: Facts, block: Record<string, any>): void {
  const input = block.input && typeof block.input === "object" ? (block.input as Record<string, unknown>) : {};
  const name = typeof block.name === "string" ? block.name : "unknown";
  if (f.pending.size >= MAX_PENDING) f.pending.delete(f.pending.keys().next().value!);
  f.pending.set(block.id, { name, input, line: f.line });
  if (name === "ExitPlanMode" && typeof input.plan === "string") notePlanText(f, input.plan);
  onTaskUse(f, name, input, block.id);
}

function onToolResult(f: Facts, block: Record<string, any>, structured: unknown, cwd: string, side = false): void {
  const call = f.pending.get(block.tool_use_id);
  if (!call) return;
  f.pending.delete(block.tool_use_id);
  f.toolResults += 1;
  const failed = block.is_error === true;
  const turnedDown = failed ? rejection(resultText(block.content)) : null;
  if (turnedDown) return onRejected(f, call.name, call.input, describeTool(call.name, call.input), turnedDown.feedback);
  const lines = call.line ? [call.line, f.line] : [f.line];
  if (call.name === "Bash") noteCommand(f, String(call.input.command ?? ""), !failed, lines);
  if (call.name === "Bash" && !failed) onTrackerStep(f, String(call.input.command ?? ""), resultText(block.content));
  if (failed) noteRefusal(f.tools, resultText(block.content));
  if (failed) return recordFailure(f, call.name, call.input, resultText(block.content), lines);
  recordSuccess(f, call.name, call.input, resultText(block.content));
  if (call.name === "AskUserQuestion" && !side) onAnswered(f, resultText(block.content), structured);
  onBackgroundResult(f, block.tool_use_id, call.name, call.input, resultText(block.content));
  if (FILE_TOOLS.has(call.name) || (call.name === "Bash" && isMeaningfulCommand(String(call.input.command ?? ""))))
    noteStep(f);
  if (FILE_TOOLS.has(call.name)) addFile(f, call.name, call.input);
  if (call.name === "Bash") moveFiles(f, String(call.input.command ?? ""), cwd);
  onTaskResult(f, call.name, call.input, block.tool_use_id, resultText(block.content), structured);
}
