import {
  emptySessionTools,
  noteRefusal,
  noteToolsLine,
  planClause,
  planStore,
  type SessionTools,
} from "../../core/plan-tools.ts";
import { streamEntries } from "./stream.ts";
import { fieldsOf } from "../../core/json.ts";

/** How much of a transcript's start is read for its tools (the first request's line comes early). */
const HEAD_BYTES = 2 * 1024 * 1024;

/**
 * The tools a session's transcript shows it had (core/plan-tools.ts): its first request's, the
 * deferred ones, and task tools the client refused, read from the first 2 MiB only (once, at
 * CRITICAL). Nothing known for a path that is not absolute or cannot be read.
 */
export function sessionTools(transcriptPath: string | undefined): SessionTools {
  const t = emptySessionTools();
  if (!transcriptPath?.startsWith("/")) return t;
  streamEntries(
    transcriptPath,
    (e) => {
      const content: unknown = fieldsOf(e.message).content;
      if (noteToolsLine(t, e) || e.type !== "user" || !Array.isArray(content)) return;
      for (const item of content) {
        const b = fieldsOf(item);
        if (b.type === "tool_result" && b.is_error === true && typeof b.content === "string") noteRefusal(t, b.content);
      }
    },
    { maxBytes: HEAD_BYTES, needles: ["api-request-shape", "deferred_tools_delta", "No such tool available"] },
  );
  return t;
}

/** How the session of this transcript saves its plan, for the CRITICAL message (docs/plan-tools.md). */
export function planFor(transcriptPath: string | undefined): string | undefined {
  return planClause(planStore(sessionTools(transcriptPath)));
}
