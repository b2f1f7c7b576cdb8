/**
 * Writes one key into the user's config file (or a project's), keeping every other line
 * (`ctx config --budget`, `ctx install --budget`): atomic, under a lock, checked by reading it back.
 */
import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import { flatten, resolveConfig } from "../core/config.ts";
import type { ConfigKey } from "../core/config-schema.ts";
import { setYamlKey } from "../core/config-edit.ts";
import { CtxError } from "../core/deps.ts";
import { ensureDir } from "./fs/dirs.ts";
import { withLock } from "./fs/lock.ts";
import { readFileSafe } from "./fs/read.ts";
import { writeFileAtomic } from "./fs/write.ts";

/** Sets `key` to `value` (as written: `200k`) in the YAML file at `path`; returns the value it now resolves to. */
export function setConfigKey(path: string, key: ConfigKey, value: string): unknown {
  const problems: string[] = [];
  const wanted = resolveConfig([{ [key]: value }], (m) => problems.push(m))[key];
  if (problems.length) throw new CtxError(2, `${key}: ${problems.join("; ").replace(`${key}: `, "")}`);
  ensureDir(dirname(path));
  return withLock(`${path}.lock`, () => {
    const read = readFileSafe(path);
    if (read === undefined && lstatOrNull(path))
      throw new CtxError(
        1,
        `${path}: not a regular file of yours; not changing it`,
        `add \`${key}: ${value}\` by hand`,
      );
    const before = read ?? "";
    const text = setYamlKey(before, key, value);
    let got: unknown;
    try {
      got = flatten(Bun.YAML.parse(text))[key];
    } catch {
      got = undefined;
    }
    if (resolveConfig([{ [key]: got }])[key] !== wanted)
      throw new CtxError(1, `${path}: could not set ${key} in it; not changing it`, `add \`${key}: ${value}\` by hand`);
    writeFileAtomic(path, text, 0o644);
    return wanted;
  });
}

function lstatOrNull(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
