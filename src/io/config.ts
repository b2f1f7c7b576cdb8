import { flatten, envLayer, resolveConfig, type Layer } from "../core/config.ts";
import type { Config } from "../core/config-schema.ts";
import { debug, type Deps } from "../core/deps.ts";
import { projectConfigPath, userConfigPath } from "../core/paths.ts";
import { readFileSafe } from "./fsx.ts";

/**
 * Loads the configuration: defaults, then the user's config.yaml, then the
 * project's `.ctx/config.yaml`, then `CTX_*` variables. Problems are reported
 * under CTX_DEBUG and never stop a hook.
 */
export function loadConfig(deps: Pick<Deps, "env" | "stderr">, project: string): Config {
  const warn = (msg: string) => debug(deps, `config: ${msg}`);
  const layers = [
    readYaml(userConfigPath(deps.env), warn),
    readYaml(projectConfigPath(project), warn),
    envLayer(deps.env),
  ];
  return resolveConfig(layers, warn);
}

/** The configuration from defaults and `CTX_*` variables only, for what must be known before the project is. */
export function envConfig(env: Record<string, string | undefined>): Config {
  return resolveConfig([envLayer(env)]);
}

// --- internal ---

function readYaml(path: string, warn: (msg: string) => void): Layer {
  const text = readFileSafe(path, { maxBytes: 1024 * 1024 });
  if (text === undefined || text.trim() === "") return {};
  try {
    const doc: unknown = Bun.YAML.parse(text);
    if (doc === null || doc === undefined) return {};
    if (typeof doc !== "object" || Array.isArray(doc)) {
      warn(`${path}: not a mapping, ignored`);
      return {};
    }
    return flatten(doc);
  } catch (err) {
    warn(`${path}: ${(err as Error).message}; using defaults`);
    return {};
  }
}
