/**
 * Every configuration key ctx knows, with its default. Keys are `section.name`;
 * the environment variable for `a.b_c` is `CTX_A_B_C`.
 */

/** How a key's value is parsed. `threshold` is a number that `off` disables (value `false`). */
export type Kind = "number" | "threshold" | "boolean" | "string";

interface Spec<K extends Kind, V> {
  kind: K;
  default: V;
  doc: string;
  /** Allowed values for a string key. */
  values?: readonly string[];
}

const num = (d: number, doc: string): Spec<"number", number> => ({ kind: "number", default: d, doc });
const thr = (d: number | false, doc: string): Spec<"threshold", number | false> => ({ kind: "threshold", default: d, doc });
const bool = (d: boolean, doc: string): Spec<"boolean", boolean> => ({ kind: "boolean", default: d, doc });
const str = (d: string, doc: string, values?: readonly string[]): Spec<"string", string> => ({ kind: "string", default: d, doc, values });

/** The schema: one entry per key. The README's configuration table mirrors it. */
export const SCHEMA = {
  "context.window_size": thr(false, "Context window in tokens when Claude Code does not say (off = from the model: 1M for [1m] models or usage above 200k, else 200k)"),
  "statusline.display": str("raw", "Percentage shown: raw (= Claude Code's used_percentage), usable (against the auto-compact threshold, as GSD shows it) or both", ["raw", "usable", "both"]),
  "statusline.autocompact_buffer_pct": num(16.5, "Share of the window reserved before auto-compaction, for the usable display"),
  "statusline.git_branch": bool(true, "Show the git branch (read from .git/HEAD, no subprocess)"),
  "statusline.stdin_timeout_ms": num(1000, "Give up on a stdin that never closes after this long"),
  "monitor.warning_remaining": thr(35, "WARNING when remaining context is at or below this percentage"),
  "monitor.critical_remaining": thr(25, "CRITICAL when remaining context is at or below this percentage"),
  "monitor.debounce_calls": num(5, "Tool uses between two repeated warnings of the same level"),
  "monitor.bridge_max_age_s": num(60, "A bridge file older than this is stale; the transcript is read instead"),
  "monitor.tail_bytes": num(8 * 1024 * 1024, "How far back from the end of the transcript to look for the latest usage"),
  "monitor.stdin_timeout_ms": num(2000, "Give up on hook stdin after this long"),
  "track.caution": thr(70, "Caution level (used %)"),
  "track.warning": thr(85, "Warning level (used %)"),
  "track.auto_pause": thr(90, "Auto-pause level (used %): actions are captured from here on"),
  "track.critical": thr(95, "Critical level (used %)"),
} as const satisfies Record<string, Spec<Kind, unknown>>;

/** A configuration key. */
export type ConfigKey = keyof typeof SCHEMA;

type ValueOf<S> = S extends { kind: "threshold" } ? number | false : S extends { kind: "number" } ? number : S extends { kind: "boolean" } ? boolean : string;

/** A fully resolved configuration: every key has a value of its kind. */
export type Config = { [K in ConfigKey]: ValueOf<(typeof SCHEMA)[K]> };

/** The environment variable that overrides `key`. */
export function envName(key: string): string {
  return `CTX_${key.replace(/\./g, "_").toUpperCase()}`;
}
