/** `YYYYMMDD-HHMMSS` (UTC) of a time in ms: the stamp of record and summary file names. */
export function fileStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** `YYYYMMDD-HHMMSS-mmm` (UTC): a stamp fine enough for event files. */
export function eventStamp(ms: number): string {
  return `${fileStamp(ms)}-${String(Math.floor(ms) % 1000).padStart(3, "0")}`;
}

/** True for a task id that is safe in a file name (`[A-Za-z0-9_.-]`, 1-128 characters, not only dots). */
export function isValidTaskId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_.-]{1,128}$/.test(id) && !/^\.+$/.test(id);
}

/**
 * The task id of a new chain: CTX_TASK_ID when it is a safe one, else an id made
 * once from the chain's first session (`chain-` and its first 8 characters), which
 * the chain's later sessions inherit rather than make their own.
 */
export function taskIdFor(envTaskId: string | undefined, sessionId: string): string {
  if (isValidTaskId(envTaskId)) return envTaskId;
  const short = sessionId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  return `chain-${short || "session"}`;
}
