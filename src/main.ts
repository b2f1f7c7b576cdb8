import { COMMANDS } from "./commands/index.ts";
import { stdinWaitMs, waitedMs } from "./io/fs/wait.ts";
import { helpText } from "./core/cli-help.ts";
import { nearest } from "./core/suggest.ts";
import { terminalSafe, terminalText } from "./core/terminal.ts";
import { CtxError, type Deps } from "./core/deps.ts";
import { readStdin } from "./io/process/stdin.ts";
import { sys } from "./io/fs/sys.ts";

declare const CTX_VERSION: string | undefined;

/** The version baked in by build.ts (`define`), or the package's when run from source. */
const VERSION = typeof CTX_VERSION === "string" ? CTX_VERSION : "0.0.0-dev";

/** Runs ctx with `argv` (without the program name) and returns the exit code. */
export async function main(argv: string[], deps: Deps): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    deps.stdout(globalHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "-v" || name === "version") {
    deps.stdout(`ctx ${VERSION}\n`);
    return 0;
  }
  const spec = COMMANDS[name];
  if (!spec) {
    const guess = nearest(name, Object.keys(COMMANDS));
    const hint = guess ? ` Did you mean 'ctx ${guess}'?` : "";
    deps.stderr(`ctx: unknown command '${terminalSafe(name)}'.${hint} Run 'ctx --help' for the list.\n`);
    return 2;
  }
  const own = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (own.includes("--help") || own.includes("-h")) {
    deps.stdout(`${helpText(name, spec.grammar)}\n`);
    return 0;
  }
  const hook = spec.hook || (spec.hookFlag !== undefined && own.includes(spec.hookFlag));
  // A typed command's output may carry file names, config keys and paths: no escape sequence of theirs
  // reaches the terminal (`ctx status` paints its own colours and sanitises its fields itself).
  if (!hook && name !== "status") deps = safeOutput(deps);
  const started = deps.now();
  const cpu = process.cpuUsage();
  try {
    const mod = await spec.load();
    const code = (await mod.run(rest, deps)) ?? 0;
    done(deps, name, hook, started, cpu);
    return code;
  } catch (err) {
    if (hook) {
      // Hooks never break the agent: swallow, record for `ctx doctor`, report only under CTX_DEBUG.
      await import("./io/error-log.ts").then((m) => m.recordHookError(deps, name, err)).catch(() => {});
      if (deps.env.CTX_DEBUG && deps.env.CTX_DEBUG !== "waits")
        deps.stderr(`ctx ${name}: ${(err as Error)?.stack ?? err}\n`);
      done(deps, name, hook, started, cpu);
      return 0;
    }
    if (err instanceof CtxError) {
      const help = err.code === 2 ? `Run 'ctx ${name} --help'.\n` : "";
      deps.stderr(`ctx ${name}: ${err.message}\n${err.hint ? `hint: ${err.hint}\n` : ""}${help}`);
      return err.code;
    }
    deps.stderr(`ctx ${name}: ${(err as Error)?.message ?? err}\n`);
    return 1;
  }
}

/**
 * How long a hook kept the agent waiting, the CPU it used and what it slept, from `started` on (runtime
 * start-up excluded), under CTX_DEBUG; any command under CTX_DEBUG=waits, which tests use to bound waits
 * without a wall clock.
 */
function done(deps: Deps, name: string, hook: boolean, started: number, cpu: NodeJS.CpuUsage): void {
  if ((hook && deps.env.CTX_DEBUG) || deps.env.CTX_DEBUG === "waits")
    deps.stderr(
      `ctx ${name}: done in ${deps.now() - started} ms (cpu ${cpuMs(cpu)} ms, waited ${waitedMs()} ms, stdin ${stdinWaitMs()} ms)\n`,
    );
}

/** `deps` whose stdout and stderr pass through terminalText. */
function safeOutput(deps: Deps): Deps {
  return { ...deps, stdout: (s) => deps.stdout(terminalText(s)), stderr: (s) => deps.stderr(terminalText(s)) };
}

/** CPU time (user + system) used since `since`, in whole milliseconds. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return Math.round((d.user + d.system) / 1000);
}

/** The text of `ctx --help`: the commands people type first, then the hooks the client runs. */
function globalHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const list = (hooks: boolean) =>
    Object.entries(COMMANDS)
      .filter(([, c]) => c.hook === hooks)
      .map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`)
      .join("\n");
  return `ctx ${VERSION}: keeps AI coding-agent sessions alive across context exhaustion

Usage: ctx <command> [options]

Commands:
${list(false)}

Hooks (the agent's client runs these; \`ctx install\` wires them):
${list(true)}

Options:
  -h, --help     Show help (also 'ctx <command> --help')
  -v, --version  Show the version

Set CTX_DEBUG=1 for diagnostics on stderr.
`;
}

/** The real outside world. */
function realDeps(): Deps {
  return {
    env: process.env,
    now: Date.now,
    cwd: safeCwd(),
    stdout: (s) => writeAll(1, s),
    stderr: (s) => writeAll(2, s),
    readStdin,
  };
}

// --- internal ---

function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return "/"; // the working directory was deleted under us
  }
}

/** Synchronous, so nothing is lost at exit; a closed pipe is ignored. */
function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text);
  let off = 0;
  for (let tries = 0; off < buf.length && tries < 10_000; tries++) {
    try {
      off += sys().write(fd, buf, off);
    } catch (err) {
      // EAGAIN on a non-blocking pipe: wait and retry; anything else (EPIPE): give up quietly
      if ((err as { code?: string }).code !== "EAGAIN") return;
      Bun.sleepSync(1);
    }
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2), realDeps()).catch(() => 0);
  process.exit(code);
}
