/**
 * `ctx trust` as a person runs it: in a terminal (a pty from `script`), answering its question.
 * The pty merges stdout and stderr; both are in `out`, with line breaks as `\n`.
 */
import { CTX_BIN } from "./ctx.ts";

/** The prompt ctx trust ends its question with. */
export const TRUST_PROMPT = "Type yes to confirm: ";

/** The outcome of one `ctx trust` in a pty. */
export interface TrustRun {
  code: number;
  /** What the terminal showed (stdout and stderr, the echoed answer included). */
  out: string;
  /** Whether ctx asked (the prompt appeared). */
  asked: boolean;
}

/**
 * Runs `ctx trust <args>` in a pty in `cwd`; when it asks, runs `beforeAnswer` (the file may be
 * changed there) and types `answer`.
 */
export async function trustInTerminal(
  args: string[],
  opts: {
    env: Record<string, string>;
    cwd: string;
    answer?: string;
    beforeAnswer?: () => void;
    /** A command the pty runs under (`[fakeClient, "env", "-i"]`): its words come first. */
    under?: string[];
  },
): Promise<TrustRun> {
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const command = [CTX_BIN, "trust", ...args].map(quote).join(" ");
  const proc = Bun.spawn([...(opts.under ?? []), "script", "-qec", command, "/dev/null"], {
    cwd: opts.cwd,
    env: opts.env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  let asked = false;
  const reader = proc.stdout.getReader();
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      out += new TextDecoder().decode(value);
      if (!asked && out.includes(TRUST_PROMPT)) {
        asked = true;
        opts.beforeAnswer?.();
        proc.stdin.write(`${opts.answer ?? "yes"}\n`);
        await proc.stdin.flush();
      }
    }
  })();
  const timer = setTimeout(() => proc.kill(), 20_000);
  const code = await proc.exited;
  clearTimeout(timer);
  await pump;
  try {
    proc.stdin.end();
  } catch {
    // already closed
  }
  return { code, out: out.replace(/\r\n/g, "\n"), asked };
}
