import { decodeLine } from "../agents/index.ts";
import { SUMMARY_DECODERS } from "../agents/summaries.ts";
import type { Facts } from "./facts.ts";

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

/** A message's text: a string, or its text blocks joined. */
function contentString(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("\n");
}

/** The context of the newest request and when its line was written. */
export function noteLatest(f: Facts, tokens: number, timestamp: unknown): void {
  f.latestTokens = tokens;
  const at = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
  f.latestAtMs = Number.isFinite(at) ? at : 0;
}
