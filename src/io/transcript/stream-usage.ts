import { emptyTotals, type ModelTotals, type TranscriptCursor } from "../../core/track/state.ts";
import { addInto, addLineUsage, lineUsage } from "../../core/track/tokens.ts";
import {
  type AutoCompaction,
  emptyTranscriptWindow,
  noteWindowLine,
  type TranscriptWindow,
} from "../../core/window-evidence.ts";
import { streamEntries } from "./stream.ts";

/** What the new part of a transcript added. */
export interface NewUsage {
  cursor: TranscriptCursor;
  /** Tokens added per model, each API message counted once. */
  deltas: Record<string, ModelTotals>;
  /** The newest automatic compaction in the part read (core/window-evidence.ts), if any. */
  autoCompaction?: AutoCompaction;
}

/**
 * Reads the transcript from where the last run stopped (at most `maxBytes`) and
 * adds each new API message's usage to `models` (in place), noting an automatic
 * compaction on the way (`model`: the session's model before the part read). A shrunk or different
 * file starts over from 0, keeping the dedupe memory so nothing is counted twice.
 */
export function readNewUsage(
  path: string,
  cursor: TranscriptCursor | null,
  models: Record<string, ModelTotals>,
  maxBytes: number,
  model?: string,
): NewUsage | undefined {
  const same = cursor && cursor.path === path;
  const seen: Array<[string, ModelTotals]> = cursor ? cursor.seen.map(([k, t]) => [k, { ...t }]) : [];
  const deltas: Record<string, ModelTotals> = {};
  // The model before the first line read is the one the session had (`model`): a compaction names it.
  const window: TranscriptWindow = { ...emptyTranscriptWindow(), ...(model ? { model } : {}) };
  const end = streamEntries(
    path,
    (entry) => {
      noteWindowLine(window, entry);
      // A rollout names its model on the turn's context line, not on the request's usage line.
      if (entry.type === "turn_context" && typeof entry.payload?.model === "string") model = entry.payload.model;
      const line = lineUsage(entry, model);
      if (!line) return;
      const delta = addLineUsage(models, seen, line);
      addInto((deltas[line.model] ??= emptyTotals()), delta);
    },
    {
      offset: same ? cursor.offset : 0,
      maxBytes,
      needles: ['"assistant"', '"tokens"', "compact_boundary", '"token_usage_record"', '"turn_context"'],
    },
  );
  if (!end) return undefined;
  const got: NewUsage = { cursor: { path, offset: end.offset, seen }, deltas };
  if (window.autoCompaction) got.autoCompaction = window.autoCompaction;
  return got;
}
