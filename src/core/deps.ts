/** Environment variables as ctx reads them: `process.env`, or a test's own. */
export type Env = Record<string, string | undefined>;

/** Everything a command touches of the outside world, injected so tests never use the real home. */
export interface Deps {
  /** Environment variables (never read process.env directly outside main.ts). */
  env: Env;
  /** Current time in milliseconds since the epoch. */
  now: () => number;
  /** Working directory of the process. */
  cwd: string;
  /** Writes data to stdout (data only, never diagnostics). */
  stdout: (text: string) => void;
  /** Writes diagnostics to stderr. */
  stderr: (text: string) => void;
  /** Reads all of stdin, giving up after `timeoutMs` or past `maxBytes` (returns what was read, `truncated` set). */
  readStdin: (opts: { timeoutMs: number; maxBytes: number }) => Promise<StdinResult>;
}

/** The outcome of reading stdin. */
export interface StdinResult {
  text: string;
  /** True when the size cap or the timeout cut the input short. */
  truncated: boolean;
}

/** A user-facing failure that main.ts maps to an exit code (1 failure, 2 usage). */
export class CtxError extends Error {
  constructor(
    readonly code: 1 | 2,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Writes a diagnostic to stderr only when CTX_DEBUG is set (`CTX_DEBUG=waits`: only the hook's "done" line). */
export function debug(deps: Pick<Deps, "env" | "stderr">, message: string): void {
  if (deps.env.CTX_DEBUG && deps.env.CTX_DEBUG !== "waits") deps.stderr(`ctx: ${message}\n`);
}
