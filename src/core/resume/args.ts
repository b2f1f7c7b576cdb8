/** Parses `ctx resume` arguments. Pure: throws CtxError(2) on a usage error. */
import { CtxError } from "../deps.ts";

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

/** The usage block of `ctx resume --help`. */
export const RESUME_USAGE = `Usage: ctx resume <summary.md> [-- <claude args>...]
       ctx resume --latest [-- <claude args>...]
       ctx resume --print <summary.md> | --print --latest
       ctx resume --dry-run <summary.md> [-- <claude args>...]
       ctx resume --hook

Starts a fresh Claude Code session (CTX_CLAUDE, else 'claude' on PATH) whose
first prompt tells it to read the previous session's summary and continue the
remaining work, followed by the summary. Arguments after '--' go to claude:
  ctx resume s.md -- -p --output-format json      (headless)
  --latest    the newest <root>/sessions/summary-*.md of the current project
  --print     print the prompt instead:  claude -p "$(ctx resume --print s.md)"
  --dry-run   show the command that would run
  --hook      SessionStart hook: after /clear or compaction, inject the newest
              summary of the session's chain no session has consumed yet (once;
              without a known predecessor, one of a chain with no live session);
              on startup, a summary a respawn cycle left pending, else a
              one-line hint. Exits 0.
Exits with claude's exit code; 1 when the summary is missing, empty or unreadable.`;

/** Parses argv (without `resume`). */
export function parseResumeArgs(argv: readonly string[]): ResumeOptions {
  const dash = argv.indexOf("--");
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const passthrough = dash < 0 ? [] : argv.slice(dash + 1);
  // A hook must not fail on arguments it does not know (exit 0 always).
  if (own.includes("--hook")) return { mode: "hook" };
  let latest = false;
  let print = false;
  let dry = false;
  const positional: string[] = [];
  for (const a of own) {
    if (a === "--latest") latest = true;
    else if (a === "--print") print = true;
    else if (a === "--dry-run") dry = true;
    else if (a.startsWith("-") && a !== "-") throw usage(`unknown option ${a}`);
    else positional.push(a);
  }
  if (print && dry) throw usage("--print and --dry-run exclude each other");
  if (positional.length > 1)
    throw usage(`one summary at a time (got ${positional.length}); put claude's arguments after '--'`);
  const summary = positional[0];
  if (latest && summary !== undefined) throw usage("give either a summary file or --latest, not both");
  if (!latest && summary === undefined) throw usage("which summary? give a file or --latest");
  return { mode: print ? "print" : dry ? "dry-run" : "launch", summary, latest, passthrough };
}

// --- internal ---

function usage(message: string): CtxError {
  return new CtxError(2, message, "see 'ctx resume --help'");
}
