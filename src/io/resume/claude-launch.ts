/** Finding and running the real `claude` binary for `ctx resume`. */
import { accessSync, constants, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { CtxError, type Env } from "../../core/deps.ts";

/** The claude to run: `CTX_CLAUDE` (a path, or a name looked up on PATH), else `claude` on PATH. */
export function findClaude(env: Env, cwd: string): string {
  const wanted = env.CTX_CLAUDE && env.CTX_CLAUDE.trim() !== "" ? env.CTX_CLAUDE : "claude";
  const found = wanted.includes("/")
    ? executable(wanted.startsWith("/") ? wanted : `${cwd}/${wanted}`)
    : Bun.which(wanted, { PATH: env.PATH ?? "" });
  if (!found) {
    throw new CtxError(
      1,
      env.CTX_CLAUDE ? `CTX_CLAUDE=${env.CTX_CLAUDE} is not an executable` : "claude not found on PATH",
      "install Claude Code (npm install -g @anthropic-ai/claude-code) or set CTX_CLAUDE to its path",
    );
  }
  return found;
}

/**
 * Runs `bin args` with the terminal inherited and returns its exit code
 * (128 + signal number when a signal ended it). While it runs, Ctrl-C belongs
 * to claude: ctx ignores SIGINT (the terminal sends it to both) and forwards
 * SIGTERM and SIGHUP.
 */
export async function runInherited(bin: string, args: readonly string[], env: Env, cwd: string): Promise<number> {
  const proc = Bun.spawn([bin, ...args], {
    cwd,
    env: env as Record<string, string>,
    stdio: ["inherit", "inherit", "inherit"],
  });
  const ignore = (): void => {};
  const forward = (sig: NodeJS.Signals) => () => proc.kill(sig);
  const onTerm = forward("SIGTERM");
  const onHup = forward("SIGHUP");
  process.on("SIGINT", ignore);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);
  try {
    const code = await proc.exited;
    return proc.signalCode ? 128 + (signalNumber(String(proc.signalCode)) ?? 0) : code;
  } finally {
    process.off("SIGINT", ignore);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
  }
}

// --- internal ---

function executable(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

function signalNumber(sig: string): number | undefined {
  return (osConstants.signals as Record<string, number>)[sig];
}
