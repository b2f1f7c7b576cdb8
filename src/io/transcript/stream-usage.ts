import { emptyTotals, type ModelTotals, type TranscriptCursor } from "../../core/track/state.ts";
import { addInto, addLineUsage, isZero, lineUsage } from "../../core/track/tokens.ts";
import {
  type AutoCompaction,
  emptyTranscriptWindow,
  noteWindowLine,
  type TranscriptWindow,
} from "../../core/window-evidence.ts";
import { limitFromTranscriptLine, type UsageLimit } from "../../core/limit.ts";
import { streamEntries } from "./stream.ts";
import { AGENTS } from "../../core/agents/index.ts";
import { fieldsOf } from "../../core/json.ts";

/** Every client's usage needles: a line holding none of them is not parsed. */
const NEEDLES = [...new Set(AGENTS.flatMap((a) => a.transcript.needles))];

/** What the new part of a transcript added. */
export interface NewUsage {
  cursor: TranscriptCursor;
  /** Tokens added per model, each API message counted once. */
  deltas: Record<string, ModelTotals>;
  /** The newest automatic compaction in the part read (core/window-evidence.ts), if any. */
  autoCompaction?: AutoCompaction;
  /** A usage limit the part read ends at (an API error line with `rate_limit`, no real request after it). */
  limit?: UsageLimit;
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
  let limit: UsageLimit | undefined;
  const end = streamEntries(
    path,
    (entry) => {
      noteWindowLine(window, entry);
      // The transcript's own record of a usage limit (older clients have no StopFailure hook).
      const hit = limitFromTranscriptLine(entry);
      if (hit) limit = hit;
      // A rollout names its model on the turn's context line, not on the request's usage line.
      const named = fieldsOf(entry.payload).model;
      if (entry.type === "turn_context" && typeof named === "string") model = named;
      const line = lineUsage(entry, model);
      if (!line) return;
      if (!isZero(line.totals)) limit = undefined; // a request went through after it: the limit is over
      const delta = addLineUsage(models, seen, line);
      addInto((deltas[line.model] ??= emptyTotals()), delta);
    },
    {
      offset: same ? cursor.offset : 0,
      maxBytes,
      needles: NEEDLES,
    },
  );
  if (!end) return undefined;
  const got: NewUsage = { cursor: { path, offset: end.offset, seen }, deltas };
  if (window.autoCompaction) got.autoCompaction = window.autoCompaction;
  if (limit) got.limit = limit;
  return got;
}
