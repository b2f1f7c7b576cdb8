/** Small helpers of the respawn driver's polling loop. */
import { statSync } from "node:fs";

/** Size and mtime of a file as a change key, plus the mtime in ms; undefined when it is missing. */
export function fileChange(path: string): { key: string; mtime: number } | undefined {
  try {
    const st = statSync(path);
    return { key: `${st.size}:${st.mtimeMs}`, mtime: Math.floor(st.mtimeMs) };
  } catch {
    return undefined;
  }
}
