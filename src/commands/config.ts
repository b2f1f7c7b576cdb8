/**
 * `ctx config [--json]`: the effective configuration, each value with where it came from
 * (default, user file, project file, environment), like `git config --show-origin`.
 */
import { SCHEMA, envName, type ConfigKey } from "../core/config-schema.ts";
import type { Deps } from "../core/deps.ts";
import { problemLocation, readConfig, type ConfigReport } from "../io/config.ts";
import { findProject } from "../io/project.ts";
import { setConfigKey } from "../io/config-write.ts";
import { userConfigPath } from "../core/paths.ts";
import { parseFor } from "./args.ts";

/** Entry point: prints the table (or JSON); problems go to stderr. Exits 0. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { values } = parseFor("config", argv);
  if (typeof values.budget === "string") return setBudget(values.budget, deps);
  const project = findProject(deps.env, deps.cwd);
  const r = readConfig(deps.env, project);
  deps.stdout(values.json ? configJson(r, project) : configTable(r));
  const problems = [
    ...r.files.flatMap((f) => (f.error ? [`${f.error} (file ignored)`] : [])),
    ...r.problems.map((p) => `${problemLocation(r.files, p.source, p.key)}: ${p.key}: ${p.message}`),
  ];
  if (problems.length)
    deps.stderr(`ctx config: ${problems.length} problem(s), see ctx doctor:\n  ${problems.join("\n  ")}\n`);
  if (r.ignored.length)
    deps.stderr(
      `ctx config: ${r.ignored.length} key(s) ignored:\n  ${r.ignored.map((i) => `${problemLocation(r.files, i.source, i.key)}: ${i.key}: the file is ${i.reason}`).join("\n  ")}\n`,
    );
  return 0;
}

/** One line per key: `origin<TAB>key=value`, origins as `default`, `file:<path>` or `env:<VAR>`. */
export function configTable(r: ConfigReport): string {
  const rows = (Object.keys(SCHEMA) as ConfigKey[]).map((key) => {
    const o = r.origins[key];
    const origin =
      o.origin === "default" ? "default" : o.origin === "environment" ? `env:${envOf(key, o.via)}` : `file:${o.source}`;
    const skipped = r.ignored.find((i) => i.key === key);
    const clamp = r.clamped.find((c) => c.key === key);
    const via = o.via
      ? `  (from deprecated ${o.via})`
      : skipped
        ? `  (ignored: the project file is ${skipped.reason})`
        : "";
    const note = clamp ? `  (clamped from ${clamp.from}: ${clamp.why})` : "";
    return [origin, `${key}=${show(key, r.config[key])}${note}${via}`] as const;
  });
  const width = Math.max(...rows.map(([o]) => o.length));
  return `${rows.map(([o, kv]) => `${o.padEnd(width)}  ${kv}`).join("\n")}\n`;
}

/** The JSON document: the files read, each key's value and origin, and the problems. */
function configJson(r: ConfigReport, project: string): string {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(SCHEMA) as ConfigKey[]) {
    const o = r.origins[key];
    values[key] = {
      value: r.config[key],
      origin: o.origin,
      source: o.origin === "environment" ? envOf(key, o.via) : o.source,
      ...(o.via ? { deprecated_key: o.via } : {}),
      ...clampOf(r, key),
    };
  }
  const doc = {
    version: 1,
    project,
    files: r.files.map((f) => ({
      origin: f.origin,
      path: f.path,
      exists: f.text !== undefined,
      error: f.error ?? null,
      ...(f.trust ? { trust: { state: f.trust.state, path: f.trust.path, sha256: f.trust.sha256 } } : {}),
    })),
    values,
    problems: r.problems.map((p) => ({
      ...p,
      location: problemLocation(r.files, p.source, p.key),
      deprecated: p.deprecated === true,
    })),
    ignored: r.ignored.map((i) => ({ ...i, location: problemLocation(r.files, i.source, i.key) })),
    clamped: r.clamped,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** `--budget SIZE`: writes context.budget into the user config file and says what it now is. */
export function setBudget(size: string, deps: Deps): number {
  const path = userConfigPath(deps.env);
  const value = setConfigKey(path, "context.budget", size);
  deps.stdout(`${path}: context.budget=${show("context.budget", value)}\n`);
  return 0;
}

// --- internal ---

/** A clamped value's `clamped_from` and `clamped_why`, for the JSON document. */
function clampOf(r: ConfigReport, key: ConfigKey): Record<string, unknown> {
  const c = r.clamped.find((x) => x.key === key);
  return c ? { clamped_from: c.from, clamped_why: c.why } : {};
}

function envOf(key: string, via: string | undefined): string {
  return envName(via ?? key);
}

function show(key: ConfigKey, v: unknown): string {
  if (v === false && SCHEMA[key].kind === "threshold") return "off";
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}
