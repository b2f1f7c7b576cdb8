/**
 * The user's terminal, for a command that must ask a person (`ctx trust`): whether stdin and
 * stdout are one, and one line typed there. Typed commands only, never a hook.
 */
import { readSync } from "node:fs";
import { isatty } from "node:tty";

/** True when both stdin and stdout are terminals (not a pipe, a file or /dev/null). */
export function interactive(): boolean {
  return isatty(0) && isatty(1);
}

/** One line typed on stdin (without its line break), at most `maxBytes`; undefined at end of input. */
export function readLine(maxBytes = 256): string | undefined {
  const buf = Buffer.alloc(maxBytes);
  let size = 0;
  while (size < maxBytes) {
    let n: number;
    try {
      n = readSync(0, buf, size, 1, null);
    } catch (err) {
      if ((err as { code?: string }).code === "EAGAIN") {
        Bun.sleepSync(50);
        continue;
      }
      return undefined;
    }
    if (n === 0) return size === 0 ? undefined : buf.toString("utf8", 0, size);
    if (buf[size] === 0x0a) return buf.toString("utf8", 0, size).replace(/\r$/, "");
    size += n;
  }
  return buf.toString("utf8", 0, size);
}
