/** How a configuration key is declared: its kind, default, doc and marks (used by the schema files). Pure. */

/** How a key's value is parsed. `threshold` is a number that `off` disables (value `false`). */
export type Kind = "number" | "threshold" | "boolean" | "string";

/** One key: how it is parsed, its default and its documentation. */
export interface Spec<K extends Kind, V> {
  kind: K;
  default: V;
  doc: string;
  /** Allowed values for a string key. */
  values?: readonly string[];
  /** Largest allowed value of a number or threshold (percentages: 100). */
  max?: number;
  /** A level (`65`, `65%` or `130k`: up to 100 a used %, above it tokens) or a token amount (`200k`). */
  unit?: "level" | "tokens";
  /** Makes ctx act as the user (types, accepts, runs): a project file sets it only once trusted (`ctx trust`). */
  asUser?: true;
}

/** A number key. */
export const num = (d: number, doc: string): Spec<"number", number> => ({ kind: "number", default: d, doc });
/** A threshold key: a number that `off` disables. */
export const thr = (d: number | false, doc: string): Spec<"threshold", number | false> => ({
  kind: "threshold",
  default: d,
  doc,
});
/** A level of the ladder or an action threshold, in used % (0-100, `off` disables it). */
export const pct = (d: number | false, doc: string): Spec<"threshold", number | false> => ({
  kind: "threshold",
  default: d,
  doc,
  max: 100,
});
/** A level of the ladder: a used % (0-100) or a token count (`130k`, or a number above 100); `off` disables it. */
export const lvl = (d: number | false, doc: string): Spec<"threshold", number | false> => ({
  kind: "threshold",
  default: d,
  doc,
  unit: "level",
});
/** A token amount (`200k`, `1.2M`, `200000`); `off` disables it. */
export const tok = (d: number | false, doc: string): Spec<"threshold", number | false> => ({
  kind: "threshold",
  default: d,
  doc,
  unit: "tokens",
});
/** A boolean key. */
export const bool = (d: boolean, doc: string): Spec<"boolean", boolean> => ({ kind: "boolean", default: d, doc });
/** A string key, with its allowed values when there is a list. */
export const str = (d: string, doc: string, values?: readonly string[]): Spec<"string", string> => ({
  kind: "string",
  default: d,
  doc,
  values,
});

/** Marks a key that makes ctx act as the user (see Spec.asUser). */
export const asUser = <S extends Spec<Kind, unknown>>(spec: S): S & { asUser: true } => ({ ...spec, asUser: true });
