/**
 * Reading a JSON state file with the recovery docs/state.md promises: a file
 * that does not parse, or parses to something that is not a state, is renamed
 * aside to `<file>.corrupt-<unix ms>` for inspection and reads as missing, so
 * the caller starts over instead of failing on every run.
 */
import { readJsonFile, type ReadOptions } from "./read.ts";
import { sys } from "./sys.ts";

/**
 * Reads the state at `path`, checked by `parse` (which returns undefined for a
 * value that is not a valid state). Missing, unreadable or quarantined: undefined.
 * Call it under the file's lock when the caller writes the state back.
 */
export function readState<T>(
  path: string,
  parse: (value: unknown) => T | undefined,
  nowMs: number,
  opts: ReadOptions = {},
): T | undefined {
  const read = readJsonFile<unknown>(path, opts);
  if (read.status === "missing") return undefined;
  if (read.status === "ok") {
    const state = parse(read.value);
    if (state !== undefined) return state;
  }
  quarantine(path, nowMs);
  return undefined;
}

/** Renames a bad state file to `<path>.corrupt-<nowMs>`; returns the new path, or undefined when it could not be moved. */
export function quarantine(path: string, nowMs: number): string | undefined {
  const aside = `${path}.corrupt-${Math.trunc(nowMs)}`;
  try {
    sys().rename(path, aside);
    return aside;
  } catch {
    return undefined; // gone already (another run moved it), or a read-only directory
  }
}
