import { SCHEMA, envName, type Config, type ConfigKey } from "./config-schema.ts";

/** A raw layer before validation: dotted keys to values, from YAML or the environment. */
export type Layer = Record<string, unknown>;

/** The defaults of every key. */
export function defaults(): Config {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(SCHEMA)) out[key] = spec.default;
  return out as Config;
}

/**
 * Flattens a parsed YAML document into dotted keys: `{monitor: {debounce_calls: 3}}`
 * and `{"monitor.debounce_calls": 3}` both give `monitor.debounce_calls`.
 */
export function flatten(doc: unknown, prefix = "", out: Layer = {}): Layer {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return out;
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

/** The layer the environment gives: `CTX_MONITOR_DEBOUNCE_CALLS=3` sets `monitor.debounce_calls`. */
export function envLayer(env: Record<string, string | undefined>): Layer {
  const out: Layer = {};
  for (const key of Object.keys(SCHEMA)) {
    const value = env[envName(key)];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

/**
 * Applies layers over the defaults, lowest first. A value of the wrong type is
 * skipped and reported through `warn`, so a broken config never breaks a hook.
 */
export function resolveConfig(layers: Layer[], warn: (msg: string) => void = () => {}): Config {
  const cfg = defaults() as Record<string, unknown>;
  for (const layer of layers) {
    for (const [key, raw] of Object.entries(layer)) {
      if (!(key in SCHEMA)) {
        warn(`unknown config key ${key}`);
        continue;
      }
      const value = coerce(key as ConfigKey, raw);
      if (value === undefined) warn(`bad value for ${key}: ${JSON.stringify(raw)}`);
      else cfg[key] = value;
    }
  }
  return cfg as Config;
}

// --- internal ---

function coerce(key: ConfigKey, raw: unknown): unknown {
  const spec = SCHEMA[key] as { kind: string; values?: readonly string[] };
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
  switch (spec.kind) {
    case "threshold":
      if (raw === false || text === "off" || text === "false" || text === "none") return false;
      return coerceNumber(raw, text);
    case "number":
      return coerceNumber(raw, text);
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (text === "true" || text === "on" || text === "yes" || text === "1") return true;
      if (text === "false" || text === "off" || text === "no" || text === "0") return false;
      return undefined;
    default: {
      if (typeof raw !== "string" && typeof raw !== "number") return undefined;
      const s = String(raw);
      return spec.values && !spec.values.includes(s) ? undefined : s;
    }
  }
}

function coerceNumber(raw: unknown, text: string | undefined): number | undefined {
  const n = typeof raw === "number" ? raw : text !== undefined && text !== "" ? Number(text) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
