/** `ctx respawn`'s command line: the subcommand, its options and claude's arguments after `--`. */
import { CtxError } from "../core/deps.ts";
import { nearest } from "../core/suggest.ts";
import { terminalSafe } from "../core/terminal.ts";
import { isValidName } from "../io/respawn/store.ts";
import { parseFor } from "./args.ts";

/** The subcommands of `ctx respawn`. */
const ACTIONS = ["start", "attach", "stop"] as const;

/** Parsed `ctx respawn` arguments. */
export interface RespawnArgs {
  /** The subcommand. */
  action: "start" | "attach" | "stop";
  /** Supervisor (and, for start, tmux session) name. */
  name?: string;
  /** The pane to supervise (attach). */
  target?: string;
  /** Run in the background. */
  daemon: boolean;
  /** Arguments after `--`, passed to claude (start). */
  claudeArgs: string[];
}

/** Parses argv (after `respawn`); throws CtxError(2) on misuse. */
export function parseRespawnArgs(argv: string[]): RespawnArgs {
  const parsed = parseFor("respawn", argv, { positionals: Number.POSITIVE_INFINITY });
  const claudeArgs = parsed.passthrough;
  const [action, ...extra] = parsed.positionals;
  if (action !== "start" && action !== "attach" && action !== "stop")
    throw new CtxError(2, `expected start, attach or stop, got '${terminalSafe(action ?? "")}'${didYouMean(action)}`);
  if (extra.length)
    throw new CtxError(
      2,
      `unexpected argument '${extra[0]}'`,
      action === "start" ? "put claude's arguments after '--'" : undefined,
    );
  const { name, target, daemon = false } = parsed.values as { name?: string; target?: string; daemon?: boolean };
  if (name !== undefined && !isValidName(name))
    throw new CtxError(2, `bad --name '${name}': use letters, digits, '-' and '_'`);
  if (action === "attach" && !target)
    throw new CtxError(2, "attach needs --target <tmux target>", "e.g. ctx respawn attach --target work:0.1");
  if (action !== "start" && claudeArgs.length) throw new CtxError(2, "only start takes claude arguments after '--'");
  return { action, ...(name ? { name } : {}), ...(target ? { target } : {}), daemon, claudeArgs };
}

// --- internal ---

/** ` (did you mean 'stop'?)` for a mistyped subcommand, else "". */
function didYouMean(action: string | undefined): string {
  const guess = action ? nearest(action, ACTIONS) : undefined;
  return guess ? ` (did you mean '${guess}'?)` : "";
}
