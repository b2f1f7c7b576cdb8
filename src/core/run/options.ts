/** `ctx run`'s options from its command line. Pure: throws CtxError(2) on a usage error. */
import { parseCommandLine } from "../cli.ts";
import { CtxError } from "../deps.ts";
import { RUN_GRAMMAR } from "./grammar.ts";

/** What `ctx run` was asked to do. */
export interface RunOptions {
  /** The goal: the first leg's prompt, repeated to every later leg. */
  prompt: string;
  /** Print the JSON report instead of the final result. */
  json: boolean;
  maxLegs: number;
  maxTimeMs: number;
  maxLimitWaitMs: number;
  limitMarginMs: number;
  /** The used % at which a leg ends, when given (else the config's `respawn.restart_at`). */
  restartAt?: number;
  /** Arguments after `--`, given to claude unchanged. */
  passthrough: string[];
}

/** Client options `ctx run` sets itself for every leg, refused after `--`. */
const OWN_CLIENT_OPTIONS = [
  "-p",
  "--print",
  "--output-format",
  "--session-id",
  "-r",
  "--resume",
  "-c",
  "--continue",
  "--fork-session",
];

/** Parses argv (without `run`). */
export function parseRunArgs(argv: readonly string[]): RunOptions {
  const { values: v, passthrough } = parseCommandLine(RUN_GRAMMAR, argv);
  const prompt = typeof v.prompt === "string" ? v.prompt : "";
  if (prompt.trim() === "") throw usage('what should the run do? give -p "<prompt>"');
  const own = passthrough.find((a) => OWN_CLIENT_OPTIONS.includes(a.split("=")[0]!));
  if (own) throw usage(`${own} is set by ctx run for each leg; leave it out of the arguments after '--'`);
  const maxLegs = integer(v["max-legs"], 10, "--max-legs");
  if (maxLegs < 1) throw usage("--max-legs must be 1 or more");
  const restart = v["restart-at"] === undefined ? undefined : integer(v["restart-at"], 0, "--restart-at");
  if (restart !== undefined && (restart < 1 || restart > 100)) throw usage("--restart-at must be a % from 1 to 100");
  return {
    prompt,
    json: v.json === true,
    maxLegs,
    maxTimeMs: duration(v["max-time"], 6 * 3600_000, "--max-time"),
    maxLimitWaitMs: duration(v["max-limit-wait"], 6 * 3600_000, "--max-limit-wait"),
    limitMarginMs: duration(v["limit-margin"], 60_000, "--limit-margin"),
    restartAt: restart,
    passthrough,
  };
}

/** A duration: seconds, or a number with `s`, `m` or `h` (`90`, `90s`, `30m`, `2h`), in ms. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,7})(s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? "s") as "s" | "m" | "h"];
}

// --- internal ---

function duration(value: string | boolean | undefined, fallback: number, name: string): number {
  if (typeof value !== "string") return fallback;
  const ms = parseDuration(value);
  if (ms === undefined) throw usage(`${name} takes seconds or a number with s, m or h (got '${value}')`);
  return ms;
}

function integer(value: string | boolean | undefined, fallback: number, name: string): number {
  if (typeof value !== "string") return fallback;
  if (!/^\d{1,6}$/.test(value)) throw usage(`${name} takes a whole number (got '${value}')`);
  return Number(value);
}

function usage(message: string): CtxError {
  return new CtxError(2, message);
}
