import { closeQuiet, mtimeMs, readFileSafe, unlinkQuiet } from "./fsx.ts";
import { sys, type SysError } from "./sys.ts";

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
 * A lock whose pid is dead, or that is older than `staleMs`, is taken over.
 * Release with `using lock = acquireLock(...)` or `lock[Symbol.dispose]()`.
 */
export function acquireLock(path: string, opts: LockOptions = {}): Disposable {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 3000;
  const staleMs = opts.staleMs ?? 10_000;
  const deadline = now() + timeoutMs;
  const nonce = `${process.pid} ${now()} ${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(path, nonce)) return release(path, nonce);
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

function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = sys().openExclusive(path, 0o600);
  } catch (err) {
    if ((err as SysError).code === "EEXIST") return false;
    throw err;
  }
  try {
    sys().writeAll(fd, Buffer.from(content));
  } catch (err) {
    // A full disk: an empty lock left behind would make every later run wait for it to go stale.
    closeQuiet(fd);
    unlinkQuiet(path);
    throw err;
  }
  closeQuiet(fd);
  return true;
}

function release(path: string, nonce: string): Disposable {
  return {
    [Symbol.dispose]() {
      // Only remove the lock if it is still ours (it may have been taken over as stale).
      if (readFileSafe(path, { maxBytes: 4096 }) === nonce) unlinkQuiet(path);
    },
  };
}

/**
 * Removes the lock at `path` if its holder is gone. A short-lived `.break` lock
 * makes sure two waiters never both remove it (the second would remove a live lock).
 */
function breakIfStale(path: string, staleMs: number, now: () => number): void {
  const seen = readFileSafe(path, { maxBytes: 4096 });
  if (seen === undefined || !isStale(path, seen, staleMs, now)) return;
  const breaker = `${path}.break`;
  if (!tryCreate(breaker, String(process.pid))) {
    if (ageMs(breaker, now) > 2000) unlinkQuiet(breaker);
    return;
  }
  try {
    if (readFileSafe(path, { maxBytes: 4096 }) === seen) unlinkQuiet(path);
  } finally {
    unlinkQuiet(breaker);
  }
}

function isStale(path: string, content: string, staleMs: number, now: () => number): boolean {
  const [pidText, timeText] = content.split(" ");
  const pid = Number(pidText);
  const time = Number(timeText);
  // An empty or garbled lock: its holder died between create and write.
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(time)) return ageMs(path, now) > 1000;
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

function ageMs(path: string, now: () => number): number {
  const mtime = mtimeMs(path);
  return mtime === undefined ? 0 : now() - mtime;
}
