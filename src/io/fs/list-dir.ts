/** Listing a directory where a missing or unreadable one simply has nothing in it. */
import { readdirSync } from "node:fs";

/** The names in `dir` (unordered), or none when it is missing, not a directory or cannot be read. */
export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
