/** The parser every command uses: its grammar from the command table (kept out of main.ts's static graph). */
import { parseCommandLine, type Grammar, type Parsed } from "../core/cli.ts";
import { COMMANDS } from "./index.ts";

/** Parses a command's arguments by its grammar (throws CtxError(2) saying what is wrong). */
export function parseFor(command: string, argv: readonly string[], override: Partial<Grammar> = {}): Parsed {
  const spec = COMMANDS[command];
  if (!spec) throw new Error(`no command ${command}`);
  return parseCommandLine({ ...spec.grammar, ...override }, argv);
}
