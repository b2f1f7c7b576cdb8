import {
  actsAsUser,
  flatten,
  envLayer,
  resolveLayers,
  resolveConfig,
  type Resolved,
  type SourcedLayer,
} from "../core/config.ts";
import { isBounded } from "../core/config-bounds.ts";
import { keyPosition, yamlErrorPosition } from "../core/config-check.ts";
import type { Config } from "../core/config-schema.ts";
import { debug, type Deps, type Env } from "../core/deps.ts";
import { projectConfigPath, userConfigPath } from "../core/paths.ts";
import { untrustedReason } from "../core/trust.ts";
import { dirname } from "../core/pathx.ts";
import { foreignStateRoot } from "./fs/owner.ts";
import { readBytesSafe } from "./fs/read.ts";
import { checkTrust, type TrustCheck } from "./trust.ts";

/** One config file as read: its layer, and its text (for positions) when it exists. */
export interface ConfigFile {
  path: string;
  origin: "user" | "project";
  /** The text, or undefined when the file does not exist (or cannot be read). */
  text?: string;
  /** A parse error as `path:line:column: message`, when the file is not valid YAML or not a mapping. */
  error?: string;
  layer: SourcedLayer;
  /** The project file's trust, checked when it sets a key that acts as the user. */
  trust?: TrustCheck;
}

/** Everything that makes up the configuration: both files, the environment, and the result. */
export interface ConfigReport extends Resolved {
  files: ConfigFile[];
}

/**
 * Loads the configuration: defaults, then the user's config.yaml, then the
 * project's `.ctx/config.yaml`, then `CTX_*` variables. Problems are reported
 * under CTX_DEBUG and never stop a hook. The project file's keys that act as the user
 * count only when the user trusts the file as it is (`ctx trust`); `sayIgnored` says so on
 * stderr when they are ignored (for a command a person typed).
 */
export function loadConfig(
  deps: Pick<Deps, "env" | "stderr">,
  project: string,
  opts: { sayIgnored?: boolean } = {},
): Config {
  const r = readConfig(deps.env, project);
  for (const f of r.files) if (f.error) debug(deps, `config: ${f.error}; using defaults`);
  for (const p of r.problems) debug(deps, `config: ${p.source}: ${p.key}: ${p.message}`);
  const ignored = r.ignored.map((i) => i.key).join(", ");
  if (ignored && (opts.sayIgnored || deps.env.CTX_DEBUG))
    deps.stderr(`ctx: ignoring ${ignored}: ${r.ignored[0]!.source} is ${r.ignored[0]!.reason}\n`);
  return r.config;
}

/** Reads both config files and the environment, with origins and problems (for ctx config and ctx doctor). */
export function readConfig(env: Env, project: string): ConfigReport {
  const projectFile = projectConfigPath(project);
  const files = [
    readConfigFile(env, userConfigPath(env), "user"),
    // another user's .ctx (io/fs/owner.ts) is not read: its file counts as missing
    readConfigFile(env, foreignStateRoot(dirname(projectFile)) ? "" : projectFile, "project", projectFile),
  ];
  const layers: SourcedLayer[] = [
    ...files.map((f) => f.layer),
    { origin: "environment", source: "environment", values: envLayer(env) },
  ];
  return { ...resolveLayers(layers), files };
}

/**
 * The user's own configuration: defaults, the user's config.yaml and `CTX_*` variables, no project
 * file. What applies across projects (the per-user part of `ctx prune`) comes from here only.
 */
export function userConfig(env: Env): Config {
  const file = readConfigFile(env, userConfigPath(env), "user");
  return resolveLayers([file.layer, { origin: "environment", source: "environment", values: envLayer(env) }]).config;
}

/** Where a problem's key sits in its file (`path:line:column`), or the source alone. */
export function problemLocation(files: readonly ConfigFile[], source: string, key: string): string {
  const file = files.find((f) => f.path === source);
  const pos = file?.text === undefined ? undefined : keyPosition(file.text, key);
  return pos ? `${source}:${pos.line}:${pos.column}` : source;
}

/** The configuration from defaults and `CTX_*` variables only, for what must be known before the project is. */
export function envConfig(env: Env): Config {
  return resolveConfig([envLayer(env)]);
}

// --- internal ---

function readConfigFile(env: Env, read: string, origin: "user" | "project", path = read): ConfigFile {
  return parseConfigFile(env, path, origin, read === "" ? undefined : readBytesSafe(read, { maxBytes: 1024 * 1024 }));
}

/** A config file from its bytes, read once by the caller (`ctx trust` shows and trusts the same bytes). */
export function parseConfigFile(
  env: Env,
  path: string,
  origin: "user" | "project",
  bytes: Uint8Array | undefined,
): ConfigFile {
  const text = bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
  const out: ConfigFile = { path, origin, text, layer: { origin, source: path, values: {} } };
  if (bytes === undefined || text === undefined || text.trim() === "") return out;
  try {
    const doc: unknown = Bun.YAML.parse(text);
    if (doc === null || doc === undefined) return out;
    if (typeof doc !== "object" || Array.isArray(doc)) {
      out.error = `${path}:1:1: not a mapping of keys to values`;
      return out;
    }
    out.layer.values = flatten(doc);
    if (origin === "project" && Object.keys(out.layer.values).some((k) => actsAsUser(k) || isBounded(k))) {
      out.trust = checkTrust(env, path, bytes);
      const why = untrustedReason(out.trust.state);
      if (why !== undefined) out.layer.untrusted = why;
    }
  } catch (err) {
    const pos = yamlErrorPosition(text, (t) => Bun.YAML.parse(t));
    out.error = `${path}:${pos?.line ?? 1}:${pos?.column ?? 1}: ${(err as Error).message}`;
  }
  return out;
}
