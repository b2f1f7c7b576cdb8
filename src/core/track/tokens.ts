import { lineAgent } from "../agents/index.ts";
import { rolloutRequest } from "../agents/codex-rollout.ts";
import { count } from "../usage.ts";
import { emptyTotals, type ModelTotals } from "./state.ts";

/** How many recent message ids are remembered for dedupe across hook runs. */
export const SEEN_LIMIT = 32;

/** The usage of one transcript `assistant` line, or undefined when it has none worth counting. */
export interface LineUsage {
  /** message.id + requestId: the same for every line of one API message. */
  key: string;
  model: string;
  totals: ModelTotals;
}

/**
 * Reads the usage of a parsed transcript entry (a Claude Code `assistant` line or a
 * Gemini CLI `gemini` record, a Codex CLI `token_usage_record` of `model`: the decoder is
 * chosen by `lineAgent`, core/agents/). Every line of one API message
 * repeats the same usage, so callers dedupe on `key`. `<synthetic>` messages are
 * not real usage. Sidechain (subagent) usage is included: it costs the same.
 */
export function lineUsage(entry: Record<string, any>, rolloutModel?: string): LineUsage | undefined {
  const agent = lineAgent(entry);
  if (agent === "gemini") return entry.type === "gemini" ? geminiUsage(entry) : undefined;
  if (agent === "codex") return codexUsage(entry, rolloutModel);
  if (entry.type !== "assistant" || !entry.message || typeof entry.message !== "object") return undefined;
  const msg = entry.message;
  const model = typeof msg.model === "string" ? msg.model : "unknown";
  if (model === "<synthetic>" || !msg.usage || typeof msg.usage !== "object") return undefined;
  const id = typeof msg.id === "string" ? msg.id : "";
  const req = typeof entry.requestId === "string" ? entry.requestId : "";
  if (!id && !req) return undefined;
  const u = msg.usage;
  const totals: ModelTotals = {
    input_tokens: count(u.input_tokens),
    output_tokens: count(u.output_tokens),
    cache_creation_input_tokens: count(u.cache_creation_input_tokens),
    cache_read_input_tokens: count(u.cache_read_input_tokens),
    requests: 1,
  };
  return { key: `${id}|${req}`, model, totals };
}

/**
 * Adds one line's usage to `models`, counting each API message once: a repeated
 * key adds only what grew since it was last counted (streaming lines may carry a
 * growing output count). `seen` is updated in place and kept to SEEN_LIMIT entries.
 * Returns the tokens added (for the ledger).
 */
export function addLineUsage(
  models: Record<string, ModelTotals>,
  seen: Array<[string, ModelTotals]>,
  line: LineUsage,
): ModelTotals {
  const idx = seen.findIndex(([key]) => key === line.key);
  const before = idx >= 0 ? seen[idx]![1] : emptyTotals();
  const delta = diff(line.totals, before);
  const after = maxTotals(before, line.totals);
  if (idx >= 0) seen.splice(idx, 1);
  seen.push([line.key, after]);
  while (seen.length > SEEN_LIMIT) seen.shift();
  const target = (models[line.model] ??= emptyTotals());
  addInto(target, delta);
  return delta;
}

/** Adds `b` into `a` in place. */
export function addInto(a: ModelTotals, b: ModelTotals): void {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cache_creation_input_tokens += b.cache_creation_input_tokens;
  a.cache_read_input_tokens += b.cache_read_input_tokens;
  a.requests += b.requests;
}

/** True when every field is zero. */
export function isZero(t: ModelTotals): boolean {
  return (
    !t.input_tokens && !t.output_tokens && !t.cache_creation_input_tokens && !t.cache_read_input_tokens && !t.requests
  );
}

/** Totals from a usage object given by a bot (plain mode): one request. */
export function totalsOf(usage: Record<string, unknown>): ModelTotals {
  return {
    input_tokens: count(usage.input_tokens),
    output_tokens: count(usage.output_tokens),
    cache_creation_input_tokens: count(usage.cache_creation_input_tokens),
    cache_read_input_tokens: count(usage.cache_read_input_tokens),
    requests: 1,
  };
}

// --- internal ---

/**
 * A Gemini CLI chat-log record (`type: "gemini"`, `tokens{input,output,cached,thoughts,tool}`, `model`).
 * The client writes a record again once its tool calls ran (same `id`): the key dedupes it.
 * `input` counts the cached part too: the cached tokens are the cache reads.
 */
function geminiUsage(entry: Record<string, any>): LineUsage | undefined {
  const t = entry.tokens;
  if (!t || typeof t !== "object" || typeof entry.id !== "string" || !entry.id) return undefined;
  const cached = count(t.cached);
  return {
    key: `gemini|${entry.id}`,
    model: typeof entry.model === "string" ? entry.model : "unknown",
    totals: {
      input_tokens: Math.max(0, count(t.input) - cached) + count(t.tool),
      output_tokens: count(t.output) + count(t.thoughts),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: cached,
      requests: 1,
    },
  };
}

/** A Codex CLI rollout's `token_usage_record`: one request, its cached input counted as cache reads. */
function codexUsage(entry: Record<string, any>, model: string | undefined): LineUsage | undefined {
  const r = rolloutRequest(entry);
  if (!r) return undefined;
  return {
    key: r.key,
    model: model ?? "unknown",
    totals: {
      input_tokens: r.input,
      output_tokens: r.output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: r.cached,
      requests: 1,
    },
  };
}

function diff(now: ModelTotals, before: ModelTotals): ModelTotals {
  const d = (k: keyof ModelTotals) => Math.max(0, now[k] - before[k]);
  return {
    input_tokens: d("input_tokens"),
    output_tokens: d("output_tokens"),
    cache_creation_input_tokens: d("cache_creation_input_tokens"),
    cache_read_input_tokens: d("cache_read_input_tokens"),
    requests: d("requests"),
  };
}

function maxTotals(a: ModelTotals, b: ModelTotals): ModelTotals {
  const m = (k: keyof ModelTotals) => Math.max(a[k], b[k]);
  return {
    input_tokens: m("input_tokens"),
    output_tokens: m("output_tokens"),
    cache_creation_input_tokens: m("cache_creation_input_tokens"),
    cache_read_input_tokens: m("cache_read_input_tokens"),
    requests: m("requests"),
  };
}
