/** The refresh loop of `ctx status --watch`: redraws in place until SIGINT or SIGTERM. */
import { abortableSleep } from "./sleep.ts";

/** Loop options. */
export interface WatchOptions {
  /** Produces one frame (called on every refresh). */
  frame: () => string;
  intervalMs: number;
  write: (text: string) => void;
  /** Redraw over the previous frame (a terminal); else frames follow one another. */
  inPlace: boolean;
  /** Stops the loop early (tests); SIGINT and SIGTERM always do. */
  signal?: AbortSignal;
}

/** Runs until interrupted; resolves (never exits the process) so main.ts returns 0. */
export async function watchLoop(o: WatchOptions): Promise<void> {
  const ac = new AbortController();
  const stop = (): void => ac.abort();
  o.signal?.addEventListener("abort", stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    if (o.inPlace) o.write("\x1b[?25l\x1b[2J");
    while (!ac.signal.aborted) {
      const text = o.frame();
      // Appended frames are separated by a blank line, unless a frame is one line (NDJSON).
      const sep = text.indexOf("\n") === text.length - 1 ? "" : "\n";
      o.write(o.inPlace ? `\x1b[H${text.replace(/\n/g, "\x1b[K\n")}\x1b[J` : `${text}${sep}`);
      await abortableSleep(o.intervalMs, ac.signal);
    }
  } finally {
    if (o.inPlace) o.write("\x1b[?25h");
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    o.signal?.removeEventListener("abort", stop);
  }
}
