// A worker for crash.test.ts: takes each lock given on the command line with
// ctx's own acquireLock, says "locked", and waits to be killed with -9.
import { acquireLock } from "../../src/io/fs/lock.ts";

for (const path of process.argv.slice(2)) acquireLock(path, { timeoutMs: 10_000 });
process.stdout.write("locked\n");
setInterval(() => {}, 1 << 30);
