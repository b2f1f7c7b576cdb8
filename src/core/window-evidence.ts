/**
 * What a Claude Code transcript tells about its session's context window (issue 20): the
 * client version that wrote it, the model, and where the session compacted by itself. Pure;
 * `resolveWindow` (core/window.ts) weighs it against the other sources.
 */
import { contextTokens, count, WINDOW_1M, WINDOW_200K } from "./usage.ts";
import { fieldsOf, isObject } from "./json.ts";

/** An automatic compaction of the session: the context size it compacted at and the model then. */
export interface AutoCompaction {
  preTokens: number;
  model?: string;
}

/** The window evidence of one transcript, filled line by line by `noteWindowLine`. */
export interface TranscriptWindow {
  /** The newest `version` of a main-chain line (the client that wrote it). */
  clientVersion?: string;
  /** The model of the newest main-chain request. */
  model?: string;
  /** The largest context of a main-chain request. */
  peakTokens: number;
  /** The newest automatic compaction. */
  autoCompaction?: AutoCompaction;
}

/**
 * The client compacts on its own at its window minus min(max output, 20k) minus 13k: 167k of 200k
 * (read in the client binary; the real 2.1.39 transcripts compacted at 167,094). From this many tokens up
 * to 200k an automatic compaction shows a 200k window; below, an override moved the point.
 */
const AUTO_COMPACT_200K_FROM = 150_000;

/** Empty evidence. */
export function emptyTranscriptWindow(): TranscriptWindow {
  return { peakTokens: 0 };
}

/** Adds one parsed transcript line (in place); subagent lines and `<synthetic>` messages say nothing. */
export function noteWindowLine(w: TranscriptWindow, e: Record<string, unknown>): void {
  if (e.isSidechain === true) return;
  if (typeof e.version === "string" && /^\d+\.\d+\.\d+/.test(e.version)) w.clientVersion = e.version;
  if (e.type === "system" && e.subtype === "compact_boundary") {
    const meta = fieldsOf(e.compactMetadata);
    const pre = count(meta.preTokens);
    if (meta.trigger === "auto" && pre > 0) w.autoCompaction = { preTokens: pre, model: w.model };
    return;
  }
  const m = fieldsOf(e.message);
  if (e.type !== "assistant" || typeof m.model !== "string" || m.model === "<synthetic>") return;
  if (!isObject(m.usage)) return;
  w.model = m.model;
  w.peakTokens = Math.max(w.peakTokens, contextTokens(m.usage));
}

/**
 * The window an automatic compaction shows, when it still describes the session: the same
 * model (a `/model` switch may change the window) and, for 200k, no request above it.
 */
export function compactionWindow(
  c: AutoCompaction | undefined,
  model: string | undefined,
  usedTokens: number,
): number | undefined {
  const bare = (id: string) => id.trim().replace(/\[1m\]$/i, "");
  if (!c || (c.model && model && bare(c.model) !== bare(model))) return undefined;
  if (c.preTokens > WINDOW_200K) return WINDOW_1M;
  return c.preTokens >= AUTO_COMPACT_200K_FROM && usedTokens <= WINDOW_200K ? WINDOW_200K : undefined;
}
