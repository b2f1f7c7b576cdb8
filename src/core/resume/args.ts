/** Parses `ctx resume` arguments. Pure: throws CtxError(2) on a usage error. */
import { parseCommandLine } from "../cli.ts";
import { CtxError } from "../deps.ts";
import { GRAMMARS } from "../grammars.ts";

/** What `ctx resume` was asked to do. */
export type ResumeOptions =
  | { mode: "hook" }
  | {
      /** launch: start claude; print: print the prompt; dry-run: show the command. */
      mode: "launch" | "print" | "dry-run";
      /** The summary given on the command line, when not `--latest`. */
      summary?: string;
      /** Pick the newest summary of the current project. */
      latest: boolean;
      /** Arguments after `--`, passed to claude as they are. */
      passthrough: string[];
    };

/** Parses argv (without `resume`) by its grammar (core/grammars.ts). */
export function parseResumeArgs(argv: readonly string[]): ResumeOptions {
  const dash = argv.indexOf("--");
  // A hook must not fail on arguments it does not know (exit 0 always).
  if ((dash < 0 ? argv : argv.slice(0, dash)).includes("--hook")) return { mode: "hook" };
  const {
    values: v,
    positionals,
    passthrough,
  } = parseCommandLine({ ...GRAMMARS.resume, positionals: Number.POSITIVE_INFINITY }, argv);
  const latest = v.latest === true;
  const print = v.print === true;
  const dry = v["dry-run"] === true;
  if (print && dry) throw usage("--print and --dry-run exclude each other");
  if (positionals.length > 1)
    throw usage(`one summary at a time (got ${positionals.length}); put claude's arguments after '--'`);
  const summary = positionals[0];
  if (latest && summary !== undefined) throw usage("give either a summary file or --latest, not both");
  if (!latest && summary === undefined) throw usage("which summary? give a file or --latest");
  return { mode: print ? "print" : dry ? "dry-run" : "launch", summary, latest, passthrough };
}

// --- internal ---

function usage(message: string): CtxError {
  return new CtxError(2, message);
}
