import { agent, decodeLine, type LineUsage } from "../agents/index.ts";
import { count } from "../usage.ts";
import { emptyTotals, type ModelTotals } from "./state.ts";

/** How many recent message ids are remembered for dedupe across hook runs. */
export const SEEN_LIMIT = 32;

/** The usage of one transcript line's request (the adapter's decoder gives it). */
export type { LineUsage } from "../agents/index.ts";

/**
 * Reads the request tokens of a parsed transcript entry with the decoder of the client that
 * claims it (`decodeLine`, core/agents/): a Claude Code `assistant` line, a Gemini CLI `gemini`
 * record, a Codex CLI `token_usage_record` of `model`. Every line of one API message repeats the
 * same usage, so callers dedupe on `key`. `<synthetic>` messages are not real usage. Sidechain
 * (subagent) usage is included: it costs the same. A line no client claims gives nothing.
 */
export function lineUsage(entry: Record<string, unknown>, rolloutModel?: string): LineUsage | undefined {
  const ev = decodeLine(entry);
  return ev ? agent(ev.agent).transcript.tokens(ev.record, rolloutModel) : undefined;
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
