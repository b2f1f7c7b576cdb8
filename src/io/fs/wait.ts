/**
 * The milliseconds this process slept on purpose (a lock's back-off, the wait for the client to write
 * the transcript), counted by ctx itself, and apart the time it waited for stdin: a hook reports both
 * under `CTX_DEBUG` (`done in … ms (cpu … ms, waited … ms, stdin … ms)`), so tests bound a hook's
 * waits without a wall clock.
 */
let waited = 0;

/** Sleeps `ms` synchronously and counts it. */
export function sleepSyncCounted(ms: number): void {
  Bun.sleepSync(ms);
  waited += ms;
}

/** Sleeps `ms` and counts it. */
export async function sleepCounted(ms: number): Promise<void> {
  await Bun.sleep(ms);
  waited += ms;
}

let stdin = 0;

/** Counts time spent waiting for stdin (poll(2) with a timeout), kept apart: it is the caller's pace, not ctx's. */
export function addStdinWait(ms: number): void {
  if (ms > 0) stdin += ms;
}

/** The milliseconds spent waiting for stdin so far. */
export function stdinWaitMs(): number {
  return Math.round(stdin);
}

/** The milliseconds slept so far, rounded. */
export function waitedMs(): number {
  return Math.round(waited);
}
