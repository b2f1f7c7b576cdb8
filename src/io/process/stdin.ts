import { sys } from "../fs/sys.ts";
import { addStdinWait } from "../fs/wait.ts";
import type { StdinResult } from "../../core/deps.ts";

/**
 * Reads stdin to the end, but gives up after `timeoutMs` (a stdin left open) or
 * once `maxBytes` have arrived. An interactive terminal counts as no input.
 */
export async function readStdin(opts: { timeoutMs: number; maxBytes: number }): Promise<StdinResult> {
  if (isTerminal()) return { text: "", truncated: false };
  const s = sys();
  if (s.pollIn && s.read) return readSync(s.pollIn, s.read, opts);
  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), opts.timeoutMs);
  });
  let truncated = false;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout") {
        truncated = true;
        break;
      }
      if (next.done) break;
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size >= opts.maxBytes) {
        truncated = true;
        break;
      }
    }
  } catch {
    truncated = true;
  } finally {
    clearTimeout(timer);
  }
  const all = Buffer.concat(chunks, size);
  return { text: all.toString("utf8", 0, Math.min(size, opts.maxBytes)), truncated };
}

// --- internal ---

/** The same with poll(2) and read(2): no stream, no timer, no promise machinery at start-up. */
function readSync(
  pollIn: (fd: number, ms: number) => boolean,
  read: (fd: number, buf: Uint8Array, off: number, len: number) => number,
  opts: { timeoutMs: number; maxBytes: number },
): StdinResult {
  const deadline = Date.now() + opts.timeoutMs;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const left = deadline - Date.now();
      const before = Date.now();
      const ready = left > 0 && pollIn(0, left);
      addStdinWait(Date.now() - before);
      if (!ready) {
        truncated = true;
        break;
      }
      const buf = Buffer.allocUnsafe(Math.max(1, Math.min(256 * 1024, opts.maxBytes - size)));
      const n = read(0, buf, 0, buf.length);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      size += n;
      if (size >= opts.maxBytes) {
        truncated = true;
        break;
      }
    }
  } catch (err) {
    // EAGAIN on a non-blocking stdin is waited out by poll; anything else ends the input here.
    truncated = (err as { code?: string }).code !== "EAGAIN" || truncated;
  }
  const all = Buffer.concat(chunks, size);
  return { text: all.toString("utf8", 0, Math.min(size, opts.maxBytes)), truncated };
}

/** A terminal (or /dev/null) on fd 0 means nobody is piping input. node:tty is avoided: it costs ms at start-up. */
function isTerminal(): boolean {
  try {
    return sys().fstat(0).isCharDevice;
  } catch {
    return true;
  }
}
