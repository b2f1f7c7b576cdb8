import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { waitedMs } from "../../../src/io/fs/wait.ts";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireLock, LockTimeout, withLock } from "../../../src/io/fs/lock.ts";
import { tempDir } from "../../helpers/tmp.ts";

const HOLDER = join(import.meta.dir, "..", "..", "hardening", "lock-holder.ts");
/** This process's start time in clock ticks, as a lock records it. */
const ownStart = () => readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[19]!;

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

describe("acquireLock()", () => {
  test("is released by dispose and then free again", () => {
    const p = join(t.dir, "a.lock");
    {
      using _l = acquireLock(p);
      expect(existsSync(p)).toBe(true);
    }
    expect(existsSync(p)).toBe(false);
    expect(withLock(p, () => 42)).toBe(42);
  });

  test("times out while a live holder keeps it", () => {
    const p = join(t.dir, "a.lock");
    writeFileSync(p, `${process.pid} ${Date.now()} other`);
    expect(() => acquireLock(p, { timeoutMs: 50 })).toThrow(LockTimeout);
    expect(readFileSync(p, "utf8")).toContain("other");
  });

  test("takes over a lock whose holder died (kill -9)", async () => {
    const dead = Bun.spawn(["sleep", "10"]);
    dead.kill(9);
    await dead.exited;
    const p = join(t.dir, "a.lock");
    writeFileSync(p, `${dead.pid} ${Date.now()} crashed`);
    const waited = waitedMs();
    using _l = acquireLock(p, { timeoutMs: 2000 });
    expect(waitedMs() - waited).toBeLessThan(50); // taken over at the first looks, not waited out (2000 ms)
    expect(readFileSync(p, "utf8")).toStartWith(`${process.pid} `);
  });

  test("takes over a lock older than staleMs even if its pid lives", () => {
    const p = join(t.dir, "a.lock");
    writeFileSync(p, `${process.pid} ${Date.now() - 60_000} old`);
    using _l = acquireLock(p, { timeoutMs: 500, staleMs: 10_000 });
    expect(readFileSync(p, "utf8")).not.toContain("old");
  });

  test("is stamped when taken, not when the wait began", async () => {
    const p = join(t.dir, "a.lock");
    const holder = Bun.spawn([process.execPath, HOLDER, `${p}@400`], { stdout: "pipe" });
    await holder.stdout.getReader().read(); // "locked"
    const waitStarted = Date.now();
    using _l = acquireLock(p, { timeoutMs: 10_000 });
    const [pid, takenMs] = readFileSync(p, "utf8").split(" ").map(Number);
    expect(pid).toBe(process.pid);
    expect(takenMs! - waitStarted).toBeGreaterThanOrEqual(300); // the holder kept it 400 ms after saying so
    await holder.exited;
  });

  test("never takes a lock from a live holder, however old, within staleMs (default 60 s)", () => {
    const p = join(t.dir, "a.lock");
    const own = ownStart();
    writeFileSync(p, `${process.pid} ${Date.now() - 30_000} busy ${own}`);
    expect(() => acquireLock(p, { timeoutMs: 100 })).toThrow(LockTimeout);
    expect(readFileSync(p, "utf8")).toContain("busy");
  });

  test("takes over at once a lock whose pid now belongs to another process (start time differs)", () => {
    const p = join(t.dir, "a.lock");
    writeFileSync(p, `${process.pid} ${Date.now()} reused ${Number(ownStart()) + 1}`);
    using _l = acquireLock(p, { timeoutMs: 2000 });
    expect(readFileSync(p, "utf8")).toStartWith(`${process.pid} `);
    expect(readFileSync(p, "utf8")).toEndWith(` ${ownStart()}`);
  });

  test("does not remove a lock that was taken over from it", () => {
    const p = join(t.dir, "a.lock");
    const l = acquireLock(p);
    writeFileSync(p, `${process.pid} ${Date.now()} someone-else`);
    l[Symbol.dispose]();
    expect(readFileSync(p, "utf8")).toContain("someone-else");
  });
});

test("withLock() loses no update across 16 processes × 10 increments", async () => {
  const counter = join(t.dir, "counter");
  writeFileSync(counter, "0");
  const worker = join(import.meta.dir, "lock-worker.ts");
  const procs = Array.from({ length: 16 }, () =>
    Bun.spawn([process.execPath, worker, counter, "10"], { stderr: "inherit" }),
  );
  const codes = await Promise.all(procs.map((p) => p.exited));
  expect(codes.every((c) => c === 0)).toBe(true);
  expect(readFileSync(counter, "utf8")).toBe("160");
}, 60_000);
