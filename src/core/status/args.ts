/** Parses `ctx status` arguments. Pure: throws CtxError(2) on a usage error. */
import { CtxError } from "../deps.ts";

/** What `ctx status` was asked for. */
export interface StatusOptions {
  all: boolean;
  json: boolean;
  watch: boolean;
  /** Only sessions at or above this used %. */
  minPct?: number;
  /** Only sessions of this directory (as given; resolved by the command). */
  project?: string;
  /** Seconds between refreshes with --watch (else status.watch_interval_s). */
  intervalS?: number;
}

/** Parses argv (without `status`). Accepts `--min 80` and `--min=80` forms. */
export function parseStatusArgs(argv: readonly string[]): StatusOptions {
  const o: StatusOptions = { all: false, json: false, watch: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitFlag(argv[i]!);
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw usage(`${flag} needs a value`);
      return v;
    };
    if (flag === "--all" || flag === "-a") o.all = true;
    else if (flag === "--json") o.json = true;
    else if (flag === "--watch" || flag === "-w") o.watch = true;
    else if (flag === "--min") o.minPct = number(flag, value(), 0, 1000);
    else if (flag === "--interval") o.intervalS = number(flag, value(), 0.1, 3600);
    else if (flag === "--project") o.project = value();
    else throw usage(`unexpected argument ${flag}`);
  }
  return o;
}

// --- internal ---

function splitFlag(a: string): [string, string | undefined] {
  const eq = a.indexOf("=");
  return a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
}

function number(flag: string, v: string, min: number, max: number): number {
  const n = Number(v.replace(/%$/, ""));
  if (v.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    throw usage(`${flag} wants a number from ${min} to ${max}, not '${v}'`);
  return n;
}

function usage(message: string): CtxError {
  return new CtxError(2, message, "see 'ctx status --help'");
}
