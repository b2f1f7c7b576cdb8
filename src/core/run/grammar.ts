/** The command line of `ctx run` (spread into GRAMMARS, core/grammars.ts). Pure data. */
import type { Grammar } from "../cli.ts";

/** `ctx run`'s grammar. */
export const RUN_GRAMMAR = {
  synopsis: [
    '-p "<prompt>" [--json] [--max-legs N] [--max-time DUR] [--max-limit-wait DUR] [--limit-margin DUR] [--restart-at PCT] [-- <claude args>...]',
  ],
  about: `Runs the prompt headless (claude -p, CTX_CLAUDE else claude on PATH) in the current
project, in legs: when a leg's context reaches respawn.restart_at (90) % ctx's
monitor hook ends it after that tool call, ctx finalize writes the summary and
the next leg starts from the resume prompt, in the same chain (CTX_TASK_ID,
CLAUDE_CODE_TASK_LIST_ID). Ends when a leg finishes on its own; at a usage
limit it waits for the reset. Progress on stderr, one line per event; the final
result on stdout (--json: a report of every leg). Needs ctx's hooks (ctx install).
Arguments after '--' go to claude unchanged (--model, --allowedTools, ...).
DUR is seconds, or a number with s, m or h. See docs/run.md.
Exit: 0 done, 1 a leg failed, 2 usage error, 3 gave up at a brake
(--max-legs, --max-time, no progress), 4 gave up at a usage limit.`,
  options: {
    prompt: { type: "string", short: "p", arg: "PROMPT", doc: "the goal: the first leg's prompt" },
    json: { type: "boolean", doc: "print a machine-readable report of every leg on stdout" },
    "max-legs": { type: "string", arg: "N", doc: "give up after N legs (default 10)" },
    "max-time": { type: "string", arg: "DUR", doc: "give up after this wall time (default 6h)" },
    "max-limit-wait": {
      type: "string",
      arg: "DUR",
      doc: "give up when a usage limit needs a longer wait (default 6h)",
    },
    "limit-margin": { type: "string", arg: "DUR", doc: "wait this long past a limit's reset time (default 60s)" },
    "restart-at": { type: "string", arg: "PCT", doc: "end a leg at this used % (default respawn.restart_at)" },
  },
  passthrough: true,
} satisfies Grammar;
