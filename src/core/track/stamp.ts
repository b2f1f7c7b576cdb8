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

/** A task id safe for a file name: CTX_TASK_ID when it is one, else the session id. */
export function taskIdFor(envTaskId: string | undefined, sessionId: string): string {
  return envTaskId && /^[A-Za-z0-9_.-]{1,128}$/.test(envTaskId) && !/^\.+$/.test(envTaskId) ? envTaskId : sessionId;
}
