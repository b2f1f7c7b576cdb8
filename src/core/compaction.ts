/**
 * Compactions ctx did not start: which kind each one was (the client's `auto` or `manual`, and `idle`,
 * Claude Code's compaction of an idle session before its prompt cache expires), read from a PreCompact
 * hook, a SessionStart after a compaction, or the transcript's lines; and what the client's own
 * compaction summary says the work was. Pure. The facts it relies on: docs/compaction.md.
 */
import { fieldsOf } from "./json.ts";

/** How a compaction started: the client's own words, and `idle` for one of an idle session. */
export type CompactionTrigger = "auto" | "manual" | "idle";

/** The notice Claude Code appends after an idle compaction (2.1.299+; the text read in the 2.1.332 binary). */
export const IDLE_NOTICE = "Compacted while idle";

/**
 * The trigger to record for a compaction: the client's `manual` as is; an automatic one (`auto`, or none said)
 * is `idle` when no turn was running (the session's last event was the end of a turn, `Stop`, or the start of a
 * session), since the client's own automatic compaction runs inside a turn, before a request.
 */
export function compactionTrigger(given: unknown, lastEvent: string | null | undefined): CompactionTrigger {
  if (given === "manual") return "manual";
  if (given === "idle") return "idle";
  return lastEvent === "Stop" || lastEvent === "SessionStart" ? "idle" : "auto";
}

/** A compaction as a transcript records it. */
export interface TranscriptCompaction {
  trigger: CompactionTrigger;
  /** The context before it (`compactMetadata.preTokens`), 0 when not said. */
  preTokens: number;
  /** The line's timestamp, when it has one. */
  at?: string;
}

/** True for the client's idle-compaction notice line (a `system` line whose content starts with the notice). */
export function isIdleNotice(e: Record<string, unknown>): boolean {
  const message = fieldsOf(e.message);
  const content =
    typeof e.content === "string" ? e.content : typeof message.content === "string" ? message.content : "";
  return e.type === "system" && content.startsWith(IDLE_NOTICE);
}

/**
 * Adds one transcript line to the compactions read so far (in place): a `compact_boundary` is one, with
 * its `compactMetadata.trigger`; the idle notice that follows it makes the newest one `idle`.
 */
export function addCompactionLine(list: TranscriptCompaction[], e: Record<string, unknown>): void {
  if (e.type === "system" && e.subtype === "compact_boundary") {
    const meta = fieldsOf(e.compactMetadata);
    const pre = typeof meta.preTokens === "number" && Number.isFinite(meta.preTokens) ? meta.preTokens : 0;
    const trigger: CompactionTrigger = meta.trigger === "manual" ? "manual" : "auto";
    list.push({
      trigger,
      preTokens: Math.max(0, Math.floor(pre)),
      ...(typeof e.timestamp === "string" ? { at: e.timestamp } : {}),
    });
  } else if (list.length > 0 && isIdleNotice(e)) {
    list[list.length - 1]!.trigger = "idle";
  }
}

/** How many compactions of each kind: `1 auto, 1 idle`. */
export function compactionKinds(list: readonly TranscriptCompaction[]): string {
  const counts = new Map<string, number>();
  for (const c of list) counts.set(c.trigger, (counts.get(c.trigger) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
}
