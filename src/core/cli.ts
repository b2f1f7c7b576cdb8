/**
 * The one command-line grammar of ctx: every command declares its options once; the parser
 * (node:util parseArgs) and the option list of `ctx <command> --help` both come from it. Pure.
 */
import { parseArgs } from "node:util";
import { CtxError } from "./deps.ts";
import { nearest } from "./suggest.ts";
import { terminalSafe } from "./terminal.ts";

/** One option of a command. */
export interface Opt {
  type: "boolean" | "string";
  /** One-letter alias, without the dash. */
  short?: string;
  /** The value's placeholder in help, e.g. `ID` (string options). */
  arg?: string;
  /** One line for the help. */
  doc: string;
}

/** A command's grammar: its synopsis, options and positionals. */
export interface Grammar {
  /** Usage lines after `ctx <command>`, e.g. `[--json] [--project DIR]`. */
  synopsis: readonly string[];
  /** What the command does, a few lines. */
  about: string;
  options: Record<string, Opt>;
  /** How many positional arguments it takes (default 0). */
  positionals?: number;
  /** Arguments after `--` are passed through (to claude). */
  passthrough?: boolean;
}

/** The parsed command line. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** Arguments after `--`, when the grammar passes them through. */
  passthrough: string[];
}

/**
 * Parses `argv` (without the command name) by `g`. An unknown option, a missing value, a value
 * given to a flag or too many arguments throw CtxError(2) saying what is wrong.
 */
export function parseCommandLine(g: Grammar, argv: readonly string[]): Parsed {
  const dash = g.passthrough ? argv.indexOf("--") : -1;
  const own = dash < 0 ? [...argv] : argv.slice(0, dash);
  const passthrough = dash < 0 ? [] : argv.slice(dash + 1);
  const options: Record<string, { type: "boolean" | "string"; short?: string }> = {};
  for (const [name, o] of Object.entries(g.options))
    options[name] = { type: o.type, ...(o.short ? { short: o.short } : {}) };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: own, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new CtxError(2, explain(err as Error & { code?: string }, Object.keys(g.options)));
  }
  const max = g.positionals ?? 0;
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals[max]!;
    throw new CtxError(2, `unexpected argument '${extra}'${max === 0 ? " (this command takes only options)" : ""}`);
  }
  for (const [name, v] of Object.entries(parsed.values))
    if (g.options[name]?.type === "string" && v === "") throw new CtxError(2, `option --${name} needs a value`);
  return { values: parsed.values as Parsed["values"], positionals: parsed.positionals, passthrough };
}

// --- internal ---

/** parseArgs' error in ctx's words; an unknown long option gets the nearest known one. */
function explain(err: Error & { code?: string }, known: readonly string[]): string {
  // parseArgs quotes the option as `'-p, --pane <value>'` or `'--pane'`: name it by its long form
  const quoted = /'(-[^']+)'/.exec(err.message)?.[1] ?? "";
  const opt = /--[^\s,=<']+/.exec(quoted)?.[0] ?? /-[^\s,=<']+/.exec(quoted)?.[0];
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const guess = opt?.startsWith("--") ? nearest(opt.slice(2).split("=")[0]!, known) : undefined;
      return `unknown option ${terminalSafe(opt ?? err.message)}${guess ? ` (did you mean --${guess}?)` : ""}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take/.test(err.message) ? `option ${opt} takes no value` : `option ${opt} needs a value`;
    default:
      return err.message.replace(/\.$/, "");
  }
}
