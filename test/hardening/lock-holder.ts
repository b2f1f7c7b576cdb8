// A worker for crash.test.ts and concurrency.test.ts: takes each lock given on the command line with
// ctx's own acquireLock and says "locked". A plain path is held until the worker is killed with -9;
// `path@ms` is held that long, then released, and the worker says whether the lock was still its own
// when it let go ("kept <path>" or "broken <path>": a live holder's lock must never be taken from it).
import { readFileSync } from "node:fs";
import { acquireLock } from "../../src/io/fs/lock.ts";

const held = process.argv.slice(2).map((arg) => {
  const at = arg.lastIndexOf("@");
  const path = at > 0 ? arg.slice(0, at) : arg;
  const ms = at > 0 ? Number(arg.slice(at + 1)) : Number.POSITIVE_INFINITY;
  const lock = acquireLock(path, { timeoutMs: 10_000 });
  return { path, ms, lock, mine: readFileSync(path, "utf8") };
});
process.stdout.write("locked\n");
for (const h of held.filter((h) => Number.isFinite(h.ms)).sort((a, b) => a.ms - b.ms)) {
  setTimeout(() => {
    let now = "";
    try {
      now = readFileSync(h.path, "utf8");
    } catch {}
    process.stdout.write(`${now === h.mine ? "kept" : "broken"} ${h.path}\n`);
    h.lock[Symbol.dispose]();
  }, h.ms);
}
if (held.some((h) => !Number.isFinite(h.ms))) setInterval(() => {}, 1 << 30);
