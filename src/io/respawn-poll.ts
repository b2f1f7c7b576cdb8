/** Small helpers of the respawn driver's polling loop. */
import { statSync } from "node:fs";

/** Size and mtime of a file as a change key, plus the mtime in ms; undefined when it is missing. */
export function fileStamp(path: string): { key: string; mtime: number } | undefined {
  try {
    const st = statSync(path);
    return { key: `${st.size}:${st.mtimeMs}`, mtime: Math.floor(st.mtimeMs) };
  } catch {
    return undefined;
  }
}

/** Sleeps `ms`, waking early when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
