import { parseObject } from "./json.ts";
import { LABEL_MAX } from "./label.ts";
import { terminalSafe } from "./terminal.ts";
import { count, percentage } from "./usage.ts";

/**
 * The bridge file between the status line and the hooks, GSD-compatible:
 * `${TMPDIR:-/tmp}/claude-ctx-<session_id>.json`.
 */
export interface Bridge {
  /** The Claude Code session. */
  session_id: string;
  /** 100 − used_pct, as Claude Code reports it. */
  remaining_percentage: number;
  /** Used share of the window, equal to Claude Code's `used_percentage`. */
  used_pct: number;
  /** When it was written, in unix seconds. */
  timestamp: number;
  /** Tokens in the context (input + cache creation + cache read of the latest request). */
  used_tokens: number;
  /** The context window in tokens. */
  context_window_size: number;
  /** The model id, e.g. `claude-sonnet-4-5` or `claude-opus-4-8[1m]`. */
  model: string | null;
  /** The session's working directory. */
  cwd: string | null;
  /** The session transcript. */
  transcript_path: string | null;
  /** The session's label (core/label.ts), resolved once and kept here; absent in older files. */
  label?: string;
}

/** Parses a bridge file's content, or undefined when it is not one. */
export function parseBridge(text: string): Bridge | undefined {
  const v = parseObject(text);
  if (!v) return undefined;
  const b = v as Partial<Bridge>;
  if (typeof b.session_id !== "string" || typeof b.timestamp !== "number" || !Number.isFinite(b.timestamp))
    return undefined;
  // Absurd figures (1e308, negative, out of range) are rejected here, where the file is read.
  const used = percentage(b.used_pct);
  if (used === undefined) return undefined;
  b.remaining_percentage = percentage(b.remaining_percentage) ?? Math.max(0, 100 - used);
  b.used_tokens = count(b.used_tokens);
  b.context_window_size = count(b.context_window_size);
  if (typeof b.label !== "string" || b.label.length > 4 * LABEL_MAX) delete b.label;
  else b.label = terminalSafe(b.label);
  return b as Bridge;
}

/** True when the bridge was written at most `maxAgeS` seconds ago (a clock jump backwards counts as stale). */
export function isFresh(bridge: Bridge, nowMs: number, maxAgeS: number): boolean {
  const age = nowMs / 1000 - bridge.timestamp;
  return age <= maxAgeS && age >= -5;
}
