/** A config value read from a file or the environment, coerced to its key's kind (amounts in tokens or percent). */
import { levelInRange, parseLevel, parseTokens } from "./budget.ts";
import { SCHEMA, type ConfigKey } from "./config-schema.ts";

/** The value wrapped as `{ok}`, or a message saying what is wrong with it. */
export function coerce(key: ConfigKey, raw: unknown, convert?: (n: number) => number): { ok: unknown } | string {
  const spec = SCHEMA[key] as { kind: string; values?: readonly string[]; max?: number; unit?: string };
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
  const shown = JSON.stringify(raw) ?? String(raw);
  switch (spec.kind) {
    case "threshold":
    case "number": {
      const off = raw === false || text === "off" || text === "false" || text === "none";
      if (spec.kind === "threshold" && off) return { ok: false };
      if (spec.unit) return coerceAmount(spec.unit, raw, text, shown, convert);
      const n = coerceNumber(raw, text);
      if (n === undefined) return `bad value ${shown}: want a number${spec.kind === "threshold" ? " or off" : ""}`;
      const v = convert ? convert(n) : n;
      if (v < 0 || (spec.max !== undefined && v > spec.max))
        return `out of range: ${shown}${convert ? ` (= ${v})` : ""}; want ${spec.max === undefined ? "0 or more" : `0 to ${spec.max}`}`;
      return { ok: v };
    }
    case "boolean":
      if (typeof raw === "boolean") return { ok: raw };
      if (text === "true" || text === "on" || text === "yes" || text === "1") return { ok: true };
      if (text === "false" || text === "off" || text === "no" || text === "0") return { ok: false };
      return `bad value ${shown}: want true or false`;
    default: {
      const want = spec.values ? `one of ${spec.values.join(", ")}` : "a string";
      if (typeof raw !== "string" && typeof raw !== "number") return `bad value ${shown}: want ${want}`;
      const s = String(raw);
      return spec.values && !spec.values.includes(s) ? `bad value ${shown}: want ${want}` : { ok: s };
    }
  }
}

/** A level (used % up to 100, tokens above) or a token amount, from a number or a text like `130k` or `65%`. */
function coerceAmount(
  unit: string,
  raw: unknown,
  text: string | undefined,
  shown: string,
  convert?: (n: number) => number,
): { ok: unknown } | string {
  const parse = unit === "level" ? parseLevel : parseTokens;
  const n = typeof raw === "number" ? raw : text !== undefined ? parse(text) : undefined;
  const want = unit === "level" ? "a used % (0 to 100) or tokens (130k)" : "tokens (200k)";
  if (n === undefined || !Number.isFinite(n)) return `bad value ${shown}: want ${want} or off`;
  const v = convert ? convert(n) : n;
  const bad = unit === "level" ? levelInRange(v) === undefined : v < 0;
  if (bad) return `out of range: ${shown}${convert ? ` (= ${v})` : ""}; want ${want}`;
  return { ok: v };
}

function coerceNumber(raw: unknown, text: string | undefined): number | undefined {
  const n = typeof raw === "number" ? raw : text !== undefined && text !== "" ? Number(text) : NaN;
  return Number.isFinite(n) ? n : undefined;
}
