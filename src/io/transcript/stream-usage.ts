import { emptyTotals, type ModelTotals, type TranscriptCursor } from "../../core/track/state.ts";
import { addInto, addLineUsage, lineUsage } from "../../core/track/tokens.ts";
import { streamEntries } from "./stream.ts";

/** What the new part of a transcript added. */
export interface NewUsage {
  cursor: TranscriptCursor;
  /** Tokens added per model, each API message counted once. */
  deltas: Record<string, ModelTotals>;
}

/**
 * Reads the transcript from where the last run stopped (at most `maxBytes`) and
 * adds each new API message's usage to `models` (in place). A shrunk or different
 * file starts over from 0, keeping the dedupe memory so nothing is counted twice.
 */
export function readNewUsage(
  path: string,
  cursor: TranscriptCursor | null,
  models: Record<string, ModelTotals>,
  maxBytes: number,
): NewUsage | undefined {
  const same = cursor && cursor.path === path;
  const seen: Array<[string, ModelTotals]> = cursor ? cursor.seen.map(([k, t]) => [k, { ...t }]) : [];
  const deltas: Record<string, ModelTotals> = {};
  const end = streamEntries(
    path,
    (entry) => {
      const line = lineUsage(entry);
      if (!line) return;
      const delta = addLineUsage(models, seen, line);
      addInto((deltas[line.model] ??= emptyTotals()), delta);
    },
    { offset: same ? cursor.offset : 0, maxBytes, needles: ['"assistant"', '"tokens"'] },
  );
  if (!end) return undefined;
  return { cursor: { path, offset: end.offset, seen }, deltas };
}
