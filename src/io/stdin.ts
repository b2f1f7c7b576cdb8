import { sys } from "./sys.ts";
import type { StdinResult } from "../core/deps.ts";

/**
 * Reads stdin to the end, but gives up after `timeoutMs` (a stdin left open) or
 * once `maxBytes` have arrived. An interactive terminal counts as no input.
 */
export async function readStdin(opts: { timeoutMs: number; maxBytes: number }): Promise<StdinResult> {
  if (isTerminal()) return { text: "", truncated: false };
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

/** A terminal (or /dev/null) on fd 0 means nobody is piping input. node:tty is avoided: it costs ms at start-up. */
function isTerminal(): boolean {
  try {
    return sys().fstat(0).isCharDevice;
  } catch {
    return true;
  }
}
