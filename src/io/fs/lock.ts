import { createExclusive } from "./write.ts";
import { readFileSafe } from "./read.ts";
import { unlinkQuiet } from "./sys.ts";
import { sys, type Stat } from "./sys.ts";

/** How long to wait for a lock and when a held lock counts as abandoned. */
export interface LockOptions {
  /** Give up after this long (default 3000 ms). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its pid lives (default 10000 ms). */
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
 * Takes an exclusive lock file `path` (created with O_EXCL, holding pid, time and a nonce).
 * A lock whose pid is dead, or that is older than `staleMs`, is taken over; so is
 * anything at `path` that cannot be a lock (a directory, symlink, FIFO, >4 KB file,
 * or an empty/garbled one older than 1 s or stamped in the future).
 * Release with `using lock = acquireLock(...)` or `lock[Symbol.dispose]()`.
 */
export function acquireLock(path: string, opts: LockOptions = {}): Disposable {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 3000;
  const staleMs = opts.staleMs ?? 10_000;
  const deadline = now() + timeoutMs;
  const nonce = `${process.pid} ${now()} ${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; ; attempt++) {
    if (createExclusive(path, nonce)) return release(path, nonce);
    breakIfStale(path, staleMs, now);
    if (now() > deadline) throw new LockTimeout(path);
    Bun.sleepSync(Math.min(1 + attempt + Math.random() * 4, 20));
  }
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

/** A real lock holds `<pid> <ms> <nonce>`: anything bigger is not one. */
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
  const [pidText, timeText] = seen.content.split(" ");
  const pid = Number(pidText);
  const time = Number(timeText);
  // An empty or garbled lock: its holder died between create and write; one stamped in the future was planted.
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(time)) {
    const age = now() - seen.mtimeMs;
    return age > 1000 || age < -1000;
  }
  if (Math.abs(now() - time) > staleMs) return true;
  return !pidAlive(pid);
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
