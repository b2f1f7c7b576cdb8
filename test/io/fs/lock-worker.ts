// A worker for lock.test.ts: increments a counter file under the lock, `n` times.
import { readFileSync, writeFileSync } from "node:fs";
import { withLock } from "../../../src/io/fs/lock.ts";

const [counter, times] = [process.argv[2]!, Number(process.argv[3] ?? 1)];
for (let i = 0; i < times; i++) {
  withLock(
    `${counter}.lock`,
    () => {
      const n = Number(readFileSync(counter, "utf8"));
      writeFileSync(counter, String(n + 1));
    },
    { timeoutMs: 30_000 },
  );
}
