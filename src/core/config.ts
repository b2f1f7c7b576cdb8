import { DEPRECATED, SCHEMA, envName, type Config, type ConfigKey } from "./config-schema.ts";
import { asCareful, type Clamp, clampBounds } from "./config-bounds.ts";
import { suggestKey } from "./config-check.ts";
import type { Env } from "./deps.ts";
import { coerce } from "./config-coerce.ts";

/** A raw layer before validation: dotted keys to values, from YAML or the environment. */
export type Layer = Record<string, unknown>;

/** Where a value came from, lowest first. */
export type Origin = "default" | "user" | "project" | "environment";

/** A raw layer with where it came from: the file's path, or `environment`. */
export interface SourcedLayer {
  origin: Exclude<Origin, "default">;
  /** The file's path, or `environment`. */
  source: string;
  values: Layer;
  /** Set for a project file the user has not trusted: why its keys that act as the user are ignored. */
  untrusted?: string;
}

/** Where one effective value came from. */
export interface ValueOrigin {
  origin: Origin;
  /** The file's path, `environment`, or `default`. */
  source: string;
  /** The deprecated key the value was read from, when it was. */
  via?: string;
}

/** A problem found in one layer. */
export interface ConfigProblem {
  /** The file's path, or `environment`. */
  source: string;
  /** The key as written (dotted). */
  key: string;
  /** What is wrong, in a few words. */
  message: string;
  /** True for a deprecated key that is still honoured (a warning, not an error). */
  deprecated?: boolean;
}

/** A key of an untrusted project file that acts as the user, and why it was ignored. */
export interface IgnoredKey {
  /** The file's path. */
  source: string;
  key: string;
  /** Why: the file is not trusted, or changed since it was. */
  reason: string;
}

/** The effective configuration, where each value came from, what was wrong, and what was ignored as untrusted. */
export interface Resolved {
  config: Config;
  origins: Record<ConfigKey, ValueOrigin>;
  problems: ConfigProblem[];
  ignored: IgnoredKey[];
  /** Values a file set that were moved into their safe range (config-bounds.ts). */
  clamped: Clamp[];
}

/** True for a key a project file sets only once trusted (`ctx trust`): it makes ctx act as the user. */
export function actsAsUser(key: string): boolean {
  return (SCHEMA as Record<string, { asUser?: true }>)[key]?.asUser === true;
}

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

/**
 * The layer the environment gives: `CTX_MONITOR_DEBOUNCE_CALLS=3` sets `monitor.debounce_calls`.
 * The variables of deprecated keys are read too (and converted by resolveConfig).
 */
export function envLayer(env: Env): Layer {
  const out: Layer = {};
  for (const key of [...Object.keys(DEPRECATED), ...Object.keys(SCHEMA)]) {
    const value = env[envName(key)];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

/**
 * Applies layers over the defaults, lowest first, and says where each value came from.
 * A value of the wrong type or out of range is skipped and listed in `problems`, so a broken
 * config never breaks a hook; deprecated keys are converted to their new key and listed too.
 * An untrusted layer's keys that act as the user are skipped and listed in `ignored`.
 */
export function resolveLayers(layers: readonly SourcedLayer[]): Resolved {
  const cfg = defaults() as Record<string, unknown>;
  const origins = {} as Record<ConfigKey, ValueOrigin>;
  for (const key of Object.keys(SCHEMA) as ConfigKey[]) origins[key] = { origin: "default", source: "default" };
  const problems: ConfigProblem[] = [];
  const ignored: IgnoredKey[] = [];
  for (const layer of layers) {
    const say = (key: string, message: string, deprecated?: boolean) =>
      problems.push({ source: layer.source, key, message, ...(deprecated ? { deprecated } : {}) });
    // deprecated keys first, in rising priority; the layer's own new keys then win over them
    for (const [old, dep] of Object.entries(DEPRECATED)) {
      if (!(old in layer.values)) continue;
      const raw = layer.values[old];
      const value = coerce(dep.use, raw, dep.convert);
      // the new key with the converted value (`warning_remaining: 40` is `levels.warning: 60`)
      const as = typeof value === "string" ? "" : String(value.ok);
      const env = layer.origin === "environment";
      say(
        old,
        `deprecated: use ${dep.use}${as ? `: ${as}` : ""}${env ? ` (${envName(dep.use)}${as ? `=${as}` : ""})` : ""}`,
        true,
      );
      if (typeof value === "string") say(old, value);
      else set(dep.use, value, old);
    }
    for (const [key, raw] of Object.entries(layer.values)) {
      if (key in DEPRECATED) continue;
      if (!(key in SCHEMA)) {
        const hint = suggestKey(key);
        say(key, `unknown key${hint ? `; did you mean ${hint}?` : ""}`);
        continue;
      }
      const value = coerce(key as ConfigKey, raw);
      if (typeof value === "string") say(key, value);
      else set(key as ConfigKey, value);
    }
    function set(key: ConfigKey, value: { ok: unknown }, via?: string): void {
      if (layer.untrusted !== undefined && actsAsUser(key)) {
        ignored.push({ source: layer.source, key: via ?? key, reason: layer.untrusted });
        return;
      }
      // An untrusted project file makes ctx more careful only: never act sooner or more often.
      if (layer.untrusted !== undefined && !asCareful(key, value.ok, cfg[key])) {
        ignored.push({
          source: layer.source,
          key: via ?? key,
          reason: `${layer.untrusted}; it may only make ${key} more careful`,
        });
        return;
      }
      cfg[key] = value.ok;
      origins[key] = { origin: layer.origin, source: layer.source, ...(via ? { via } : {}) };
    }
  }
  // Every file's value of a key that makes ctx act is moved into its safe range.
  const clamped = clampBounds(
    cfg as Config,
    (key) => origins[key].origin === "user" || origins[key].origin === "project",
  );
  return { config: cfg as Config, origins, problems, ignored, clamped };
}

/** Like resolveLayers for anonymous layers, each problem reported through `warn`. */
export function resolveConfig(layers: Layer[], warn: (msg: string) => void = () => {}): Config {
  // Anonymous layers are the caller's own (the environment, a test): not clamped as a file's are.
  const r = resolveLayers(layers.map((values) => ({ origin: "environment", source: "config", values })));
  for (const p of r.problems) warn(`${p.key}: ${p.message}`);
  return r.config;
}

// --- internal ---
