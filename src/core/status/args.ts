/** Parses `ctx status` arguments. Pure: throws CtxError(2) on a usage error. */
import { parseCommandLine } from "../cli.ts";
import { CtxError } from "../deps.ts";
import { GRAMMARS } from "../grammars.ts";

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

/** Parses argv (without `status`) by its grammar (core/grammars.ts). Accepts `--min 80` and `--min=80`. */
export function parseStatusArgs(argv: readonly string[]): StatusOptions {
  const { values: v } = parseCommandLine(GRAMMARS.status, argv);
  const o: StatusOptions = { all: v.all === true, json: v.json === true, watch: v.watch === true };
  if (typeof v.min === "string") o.minPct = number("--min", v.min, 0, 1000);
  if (typeof v.interval === "string") o.intervalS = number("--interval", v.interval, 0.1, 3600);
  if (typeof v.project === "string") o.project = v.project;
  return o;
}

// --- internal ---

function number(flag: string, v: string, min: number, max: number): number {
  const n = Number(v.replace(/%$/, ""));
  if (v.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    throw new CtxError(2, `${flag} wants a number from ${min} to ${max}, not '${v}'`);
  return n;
}
