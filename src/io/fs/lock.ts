import { createExclusive } from "./write.ts";
import { sleepSyncCounted } from "./wait.ts";
import { readFileSafe, readToEnd } from "./read.ts";
import { unlinkQuiet } from "./sys.ts";
import { sys, type Stat } from "./sys.ts";

/** How long to wait for a lock and when a held lock counts as abandoned. */
export interface LockOptions {
  /** Give up after this long (default 3000 ms). */
  timeoutMs?: number;
  /**
   * The longest a live holder may keep the lock (default 60000 ms, twice the longest hook registration):
   * past it the holder is hung, or the lock was planted naming a live pid. A holder that is dead, or
   * whose pid now belongs to another process, loses the lock at once whatever its age.
   */
  staleMs?: number;
  /** The clock (injected for tests). */
  now?: () => number;
}

/** Thrown when a lock could not be taken in time. */
export class LockTimeout extends Error {
  constructor(readonly path: string) {
    super(`timed out waiting for lock ${path}`);
  }
}

/**
 * Takes an exclusive lock file `path` (created with O_EXCL, holding pid, the time it was taken, a nonce
 * and the holder's process start time). A lock whose holder is dead, or whose pid was reused by another
 * process (its start time differs), is taken over at once; a live holder keeps it for up to `staleMs`.
 * Anything at `path` that cannot be a lock (a directory, symlink, FIFO, >4 KB file, or an empty/garbled
 * one older than 1 s or stamped in the future) is taken over too.
 * Release with `using lock = acquireLock(...)` or `lock[Symbol.dispose]()`.
 */
export function acquireLock(path: string, opts: LockOptions = {}): Disposable {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 3000;
  const staleMs = opts.staleMs ?? 60_000;
  const deadline = now() + timeoutMs;
  const nonce = Math.random().toString(36).slice(2);
  let nextLook = 0;
  for (let attempt = 0; ; attempt++) {
    // Stamped when taken, not when the wait began: a long wait must not make a fresh lock look old.
    const stamp = `${process.pid} ${now()} ${nonce} ${ownStart() ?? "-"}`;
    if (createExclusive(path, stamp)) return release(path, stamp);
    // Whether the holder lives is asked at once, then every 200 ms: a queue of waiters stays cheap.
    const t = now();
    if (t >= nextLook || t < nextLook - LOOK_EVERY_MS) {
      breakIfStale(path, staleMs, now);
      nextLook = t + LOOK_EVERY_MS;
    }
    if (now() > deadline) throw new LockTimeout(path);
    sleepSyncCounted(Math.min(1 + attempt + Math.random() * 4, MAX_SLEEP_MS));
  }
}

/**
 * Who holds the lock at `path` now, without waiting or changing it: "free" (nothing there),
 * "held" (a live holder within `staleMs`, or a lock being written), or "stale" (its holder is
 * dead, its pid reused, it is held past `staleMs`, or it is no lock at all).
 */
export function lockState(path: string, staleMs = 60_000, now: () => number = Date.now): "free" | "held" | "stale" {
  const seen = inspect(path);
  if (seen === undefined) return "free";
  return seen === "bogus" || isStale(seen, staleMs, now) ? "stale" : "held";
}

/** Runs `fn` while holding the lock `path`. */
export function withLock<T>(path: string, fn: () => T, opts: LockOptions = {}): T {
  using _lock = acquireLock(path, opts);
  return fn();
}

// --- internal ---

function release(path: string, nonce: string): Disposable {
  return {
    [Symbol.dispose]() {
      // Only remove the lock if it is still ours (it may have been taken over as stale).
      if (readFileSafe(path, { maxBytes: MAX_LOCK_BYTES }) === nonce) unlinkQuiet(path);
    },
  };
}

/**
 * The longest sleep between two tries: a waiter backs off to it within about a second, so a queue of
 * 64 hook calls behind a long-held lock costs little CPU, and one of them tries every millisecond or so.
 */
const MAX_SLEEP_MS = 50;

/** How often a waiter looks at who holds the lock (a dead or reused holder loses it). */
const LOOK_EVERY_MS = 200;

/** A real lock holds `<pid> <ms> <nonce> <start>`: anything bigger is not one. */
const MAX_LOCK_BYTES = 4096;

/**
 * Removes the lock at `path` if its holder is gone, or if it is no lock at all
 * (a directory, a symlink, a FIFO, a file over 4 KB: planted, never ours). A
 * short-lived `.break` lock makes sure two waiters never both remove it (the
 * second would remove a live lock).
 */
function breakIfStale(path: string, staleMs: number, now: () => number): void {
  const seen = inspect(path);
  if (seen === undefined || (seen !== "bogus" && !isStale(seen, staleMs, now))) return;
  const breaker = `${path}.break`;
  if (!createExclusive(breaker, String(process.pid))) {
    // A breaker that died (or one planted: not a file, stamped in the future) is cleared for the next round.
    const b = inspect(breaker);
    if (b === "bogus" || (b !== undefined && (now() - b.mtimeMs > 2000 || b.mtimeMs - now() > 1000)))
      removeAny(breaker, now);
    return;
  }
  try {
    const again = inspect(path);
    if (again === "bogus" || (again !== undefined && seen !== "bogus" && again.content === seen.content))
      removeAny(path, now);
  } finally {
    unlinkQuiet(breaker);
  }
}

/** What is at a lock path: undefined when nothing, "bogus" when it cannot be a lock, else its text and mtime. */
function inspect(path: string): { content: string; mtimeMs: number } | "bogus" | undefined {
  let st: Stat;
  try {
    st = sys().lstat(path);
  } catch {
    return undefined;
  }
  if (!st.isFile || st.size > MAX_LOCK_BYTES) return "bogus";
  const content = readFileSafe(path, { maxBytes: MAX_LOCK_BYTES });
  return content === undefined ? undefined : { content, mtimeMs: st.mtimeMs };
}

/** Removes what is at `path`: a directory is renamed aside (`<path>.corrupt-<ms>`), anything else unlinked. */
function removeAny(path: string, now: () => number): void {
  try {
    sys().unlink(path);
  } catch {
    try {
      sys().rename(path, `${path}.corrupt-${Math.trunc(now())}`);
    } catch {
      // gone already, or a read-only directory: the wait times out as before
    }
  }
}

function isStale(seen: { content: string; mtimeMs: number }, staleMs: number, now: () => number): boolean {
  const [pidText, timeText, , startText] = seen.content.split(" ");
  const pid = Number(pidText);
  const time = Number(timeText);
  // An empty or garbled lock: its holder died between create and write; one stamped in the future was planted.
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(time)) {
    const age = now() - seen.mtimeMs;
    return age > 1000 || age < -1000;
  }
  if (Math.abs(now() - time) > staleMs || !pidAlive(pid)) return true;
  // The pid lives: is it still the process that took the lock? (A lock of an older ctx has no start time.)
  const start = startText === undefined || startText === "-" ? undefined : startText;
  const current = start === undefined ? undefined : startTimeOf(pid);
  return current !== undefined && current !== start;
}

/** The start time of process `pid` in clock ticks since boot (`/proc/<pid>/stat` field 22), or undefined without /proc. */
function startTimeOf(pid: number | "self"): string | undefined {
  const stat = readToEnd(`/proc/${pid}/stat`, 4096)?.toString("latin1");
  if (!stat) return undefined;
  const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  return ticks && /^\d+$/.test(ticks) ? ticks : undefined;
}

let ownStartTime: string | undefined | null = null;

/** This process's start time, read once. */
function ownStart(): string | undefined {
  if (ownStartTime === null) ownStartTime = startTimeOf("self");
  return ownStartTime;
}

/** True while process `pid` exists (also when it is someone else's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
