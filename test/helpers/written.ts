/**
 * A summary as `ctx finalize` leaves it: the file, and the per-user record that ctx wrote it
 * (src/io/written.ts, the function finalize calls), so the resume hook and `--latest` take it.
 */
import { writeFileSync } from "node:fs";
import { jsonText } from "../../src/io/fs/write.ts";
import { recordWritten } from "../../src/io/written.ts";

/** Writes `text` at `path` and records it as written by ctx for the user of `env`. */
export function writeOwnSummary(env: Record<string, string | undefined>, path: string, text: string): void {
  writeFileSync(path, text);
  recordWritten(env, text, "summary", path);
}

/** Writes the twin `value` at `path` as finalize does, and records it as written by ctx for the user of `env`. */
export function writeOwnTwin(env: Record<string, string | undefined>, path: string, value: unknown): void {
  writeFileSync(path, jsonText(value));
  recordWritten(env, jsonText(value), "twin", path);
}
