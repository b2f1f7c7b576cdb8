/**
 * Whether the user's own status-line command that `ctx statusline --chain` runs can run at all:
 * doctor says so instead of `ok … chained with your own (…)` when it cannot, since the user would
 * silently lose their status line (ctx shows its own part alone when the chained one fails).
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Env } from "../core/deps.ts";

/** Interpreters whose first argument is the script they run. */
const INTERPRETERS = new Set(["sh", "bash", "zsh", "dash", "node", "bun", "python", "python3", "perl", "ruby"]);

/**
 * Why the shell command `command` (as `sh -c` runs it) cannot run, or undefined when it looks
 * runnable: its program missing or not executable, or the script an interpreter is given missing.
 * A command using shell syntax beyond plain words is not judged (undefined).
 */
export function chainCannotRun(env: Env, command: string): string | undefined {
  if (/[|&;<>()$`*?[\]{}]/.test(command.replace(/^\$HOME\//, "~/"))) return undefined;
  const words = (command.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => expand(env, w.replace(/^['"]|['"]$/g, "")));
  const [program, first] = words;
  if (!program) return "the command is empty";
  const base = program.split("/").pop()!;
  const found = program.includes("/") ? program : which(env, program);
  if (!found) return `${program} is not on PATH`;
  const why = notExecutable(found);
  if (why) return why;
  if (INTERPRETERS.has(base) && first && !first.startsWith("-")) {
    try {
      if (!statSync(first).isFile()) return `${first} is not a file`;
      accessSync(first, constants.R_OK);
    } catch (err) {
      return `${first}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "cannot be read"}`;
    }
  }
  return undefined;
}

// --- internal ---

function expand(env: Env, word: string): string {
  return env.HOME && word.startsWith("~/") ? join(env.HOME, word.slice(2)) : word;
}

function notExecutable(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${path}: no such file` : `${path} is not executable (chmod +x ${path})`;
  }
}

/** The first executable `name` on PATH. */
export function which(env: Env, name: string): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
