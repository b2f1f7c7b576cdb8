/**
 * Claude Code's transcript decoders (`~/.claude/projects/<dir>/<session>.jsonl`): the usage of an
 * `assistant` line (input + cache creation + cache read) or a `compact_boundary`, and the request
 * tokens of an `assistant` line for the ledger. Pure.
 */
import { isObject } from "../json.ts";
import { contextTokens, count } from "../usage.ts";
import type { LineUsage, TranscriptDecoder, UsageFacts } from "./types.ts";

/** The line types Claude Code writes to a transcript. */
const LINE_TYPES = new Set([
  "user",
  "assistant",
  "system",
  "summary",
  "queue-operation",
  "file-history-snapshot",
  "attachment",
  "progress",
  "last-prompt",
  "custom-title",
  "permission-mode",
]);

/** True for a line of Claude Code's transcript: one of its types, or a record with its `uuid`. */
export function claudeLine(e: Record<string, unknown>): boolean {
  return typeof e.type === "string" && (LINE_TYPES.has(e.type) || typeof e.uuid === "string");
}

/** Claude Code's transcript decoders. */
export const claudeTranscript: TranscriptDecoder = {
  needles: ['"assistant"', "compact_boundary"],
  usage: claudeUsage,
  tokens: claudeTokens,
};

// --- internal ---

function claudeUsage(e: Record<string, unknown>, sidechain: boolean): UsageFacts | undefined {
  if (e.isSidechain === true && !sidechain) return undefined;
  const at = typeof e.timestamp === "string" ? Date.parse(e.timestamp) : Number.NaN;
  const when = Number.isFinite(at) ? { atMs: at } : {};
  if (e.type === "system" && e.subtype === "compact_boundary") {
    const meta = isObject(e.compactMetadata) ? e.compactMetadata : undefined;
    return { usedTokens: count(meta?.postTokens), compacted: true, ...when };
  }
  if (e.type !== "assistant" || !isObject(e.message)) return undefined;
  const model = typeof e.message.model === "string" ? e.message.model : undefined;
  if (model === "<synthetic>" || !isObject(e.message.usage)) return undefined;
  const clientVersion = typeof e.version === "string" ? e.version : undefined;
  return { usedTokens: contextTokens(e.message.usage), model, ...(clientVersion ? { clientVersion } : {}), ...when };
}

function claudeTokens(entry: Record<string, unknown>): LineUsage | undefined {
  if (entry.type !== "assistant" || !isObject(entry.message)) return undefined;
  const msg = entry.message;
  const model = typeof msg.model === "string" ? msg.model : "unknown";
  if (model === "<synthetic>" || !isObject(msg.usage)) return undefined;
  const id = typeof msg.id === "string" ? msg.id : "";
  const req = typeof entry.requestId === "string" ? entry.requestId : "";
  if (!id && !req) return undefined;
  const u = msg.usage;
  return {
    key: `${id}|${req}`,
    model,
    totals: {
      input_tokens: count(u.input_tokens),
      output_tokens: count(u.output_tokens),
      cache_creation_input_tokens: count(u.cache_creation_input_tokens),
      cache_read_input_tokens: count(u.cache_read_input_tokens),
      requests: 1,
    },
  };
}
