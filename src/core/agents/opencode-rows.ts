/**
 * OpenCode's transcript: rows of its SQLite store (`$XDG_DATA_HOME/opencode/opencode.db`), one
 * JSON document each, read as records `{table: "message", id, data}` (an assistant message holds
 * `tokens {total, input, output, reasoning, cache {read, write}}`, `modelID`, `summary` on a
 * compaction summary) and `{table: "part", id, message_id, role, data}` (text, tool, step-start,
 * step-finish, compaction). The usage and request tokens of an assistant message. Pure.
 */
import { isObject } from "../json.ts";
import { count } from "../usage.ts";
import type { LineUsage, TranscriptDecoder, TranscriptStore, UsageFacts } from "./types.ts";

/** The tables a record comes from. */
export const OPENCODE_ROWS = new Set(["message", "part"]);

/** A transcript path naming one session of the store: `<database>#<session id>`. */
const STORE_PATH = /^(\/.+\.db)#(ses_[A-Za-z0-9]{1,100})$/;

/**
 * One session's messages, each followed by its parts, in the order OpenCode wrote them (its ids sort by
 * time); a part carries its message's role. Read-only: the store is OpenCode's.
 */
export const openCodeStore: TranscriptStore = {
  split(path) {
    const m = STORE_PATH.exec(path);
    return m ? { file: m[1]!, key: m[2]! } : undefined;
  },
  query: `select record from (
  select id as k1, '' as k2, json_object('table', 'message', 'id', id, 'data', json(data)) as record
    from message where session_id = ?1
  union all
  select p.message_id, p.id, json_object('table', 'part', 'id', p.id, 'message_id', p.message_id,
      'role', json_extract(m.data, '$.role'), 'data', json(p.data))
    from part p join message m on m.id = p.message_id where m.session_id = ?1
) order by k1, k2`,
};

/** OpenCode's row decoders. */
export const openCodeTranscript: TranscriptDecoder = {
  needles: ['"tokens"'],
  usage: rowUsage,
  tokens: rowTokens,
};

/** The tokens of an assistant message that ran (zero while it streams), else undefined. */
export function messageTokens(e: Record<string, unknown>): Record<string, unknown> | undefined {
  const d = e.data;
  if (e.table !== "message" || !isObject(d) || d.role !== "assistant" || !isObject(d.tokens)) return undefined;
  return totalOf(d.tokens) > 0 ? d.tokens : undefined;
}

/** A step's context as OpenCode counts it: `total`, else the sum of its parts. */
export function totalOf(t: Record<string, unknown>): number {
  const cache = isObject(t.cache) ? t.cache : {};
  return (
    count(t.total) || count(t.input) + count(t.output) + count(t.reasoning) + count(cache.read) + count(cache.write)
  );
}

// --- internal ---

function rowUsage(e: Record<string, unknown>): UsageFacts | undefined {
  const t = messageTokens(e);
  if (!t) return undefined;
  const d = e.data as Record<string, unknown>;
  const time = isObject(d.time) ? d.time : {};
  const at = count(time.completed) || count(time.created);
  return {
    usedTokens: totalOf(t),
    ...(typeof d.modelID === "string" ? { model: d.modelID } : {}),
    ...(d.summary === true ? { compacted: true } : {}),
    ...(at ? { atMs: at } : {}),
  };
}

function rowTokens(e: Record<string, unknown>): LineUsage | undefined {
  const t = messageTokens(e);
  if (!t || typeof e.id !== "string") return undefined;
  const d = e.data as Record<string, unknown>;
  const cache = isObject(t.cache) ? t.cache : {};
  return {
    key: `opencode|${e.id}`,
    model: typeof d.modelID === "string" ? d.modelID : "unknown",
    totals: {
      input_tokens: count(t.input),
      output_tokens: count(t.output) + count(t.reasoning),
      cache_creation_input_tokens: count(cache.write),
      cache_read_input_tokens: count(cache.read),
      requests: 1,
    },
  };
}
