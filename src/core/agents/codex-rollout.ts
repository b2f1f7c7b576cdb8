/**
 * The Codex CLI rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`) read line by line:
 * `{timestamp, type, payload}`. The context figure is a request's `total_tokens` (a
 * `token_usage_record` as soon as the reply is in, then the `token_count` event with
 * `model_context_window`); the token_count written just before a `compacted` line belongs to the
 * compaction request and is never the context size. Pure.
 */
import { isObject } from "../json.ts";
import { count } from "../usage.ts";

/** What one rollout line says about the context. */
export interface RolloutUsage {
  /** Tokens in the context after the line's request (`total_tokens`); 0 right after a compaction. */
  usedTokens?: number;
  /** The window the client uses (`model_context_window`), when the line says. */
  windowSize?: number;
  /** The model, when the line says (`turn_context`). */
  model?: string;
  /** True for a compaction (`compacted`, or the zeroed token_count after it). */
  compacted?: boolean;
  /** When the line was written (ms). */
  atMs?: number;
}

/** The cut-off texts of a line that can matter to {@link rolloutUsage}, for a cheap pre-filter. */
export const ROLLOUT_NEEDLES = ['"token_count"', '"token_usage_record"', '"compacted"', "model_context_window"];

/** The usage facts of one parsed rollout line, or undefined when it has none. */
export function rolloutUsage(e: Record<string, unknown>): RolloutUsage | undefined {
  const p = e.payload;
  if (!isObject(p)) return undefined;
  const at = typeof e.timestamp === "string" ? Date.parse(e.timestamp) : Number.NaN;
  const when = Number.isFinite(at) ? { atMs: at } : {};
  if (e.type === "compacted") return { usedTokens: 0, compacted: true, ...when };
  if (e.type === "token_usage_record" && isObject(p.usage)) return { usedTokens: count(p.usage.total_tokens), ...when };
  if (e.type === "turn_context" && typeof p.model === "string") return { model: p.model };
  if (e.type !== "event_msg") return undefined;
  const info = isObject(p.info) ? p.info : undefined;
  const window = count(p.type === "token_count" ? info?.model_context_window : p.model_context_window);
  const win = window > 0 ? { windowSize: window } : {};
  if (p.type === "task_started") return window > 0 ? win : undefined;
  if (p.type !== "token_count" || !info) return undefined;
  const last = isObject(info.last_token_usage) ? info.last_token_usage : undefined;
  const used = count(last?.total_tokens);
  // After a compaction Codex writes a token_count with the last request zeroed: the context starts over.
  return used === 0 ? { usedTokens: 0, compacted: true, ...win, ...when } : { usedTokens: used, ...win, ...when };
}

/** One request's tokens for the ledger, keyed by its response id (a `token_usage_record`). */
export interface RolloutRequest {
  key: string;
  input: number;
  cached: number;
  output: number;
}

/** The request a `token_usage_record` line records, or undefined. */
export function rolloutRequest(e: Record<string, unknown>): RolloutRequest | undefined {
  const p = e.payload;
  if (e.type !== "token_usage_record" || !isObject(p) || !isObject(p.usage)) return undefined;
  const u = p.usage;
  const id = typeof p.response_id === "string" ? p.response_id : "";
  if (!id) return undefined;
  const cached = count(u.cached_input_tokens);
  return {
    key: `codex|${id}`,
    input: Math.max(0, count(u.input_tokens) - cached),
    cached,
    output: count(u.output_tokens),
  };
}

/** The exit code in an `exec_command` output (`Process exited with code N`), or undefined when it shows none. */
export function execExitCode(output: string): number | undefined {
  const m = /(?:Process exited with code|Exit code:) (-?\d+)/.exec(output);
  return m ? Number(m[1]) : undefined;
}

/** The command output after Codex's `Output:` header line, or the whole text. */
export function execOutput(output: string): string {
  const i = output.indexOf("\nOutput:\n");
  return i >= 0 ? output.slice(i + 9) : output;
}

/** The files an `apply_patch` input names: `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`. */
export function patchFiles(patch: string): Array<{ op: "add" | "update" | "delete"; path: string }> {
  const out: Array<{ op: "add" | "update" | "delete"; path: string }> = [];
  for (const m of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm))
    out.push({ op: m[1]!.toLowerCase() as "add" | "update" | "delete", path: m[2]!.trim() });
  return out;
}
