/**
 * Drive an interactive program in a real tmux on a PRIVATE server socket
 * (`tmux -S <dir>/tmux.sock`), so tests never touch the user's tmux server.
 */
import { writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";

/** A tmux session running one command. */
export interface TmuxSession {
  /** Path of the private server socket. */
  socket: string;
  /** Session name (target for tmux commands). */
  name: string;
  /** Run an arbitrary tmux subcommand on the private server; returns stdout. */
  tmux(...args: string[]): Promise<string>;
  /**
   * Types `text` literally, waits until the client's input line shows it (up to 5 s), then presses
   * Enter at least `enterDelayMs` (150) after typing: an Enter that reaches a client still busy
   * drawing arrives with the text in one read, and the client takes it as part of a paste.
   * True when the box showed the text before Enter.
   */
  sendText(text: string, enterDelayMs?: number): Promise<boolean>;
  /** Sends key names (e.g. "Escape", "C-c", "Enter") without -l. */
  sendKeys(...keys: string[]): Promise<void>;
  /** The visible pane as text (`capture-pane -p`; `-e` keeps ANSI escapes when `ansi`). */
  capture(opts?: { ansi?: boolean }): Promise<string>;
  /** Polls `capture()` (ANSI-stripped) until it matches; returns the matching screen. Throws with the last screen on timeout. */
  waitFor(match: RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** True while the pane's command is still running. */
  alive(): Promise<boolean>;
  /** Kills the private tmux server (and with it the command). */
  kill(): Promise<void>;
}

/**
 * True when the client's input box (a `❯` line right below a rule of `─`) starts with `text`;
 * a submitted prompt shown above, in the conversation, does not count.
 */
export function inInputBox(screen: string, text: string): boolean {
  const want = `❯ ${text.split("\n")[0]!.slice(0, 40)}`;
  // The client draws the prompt as "❯" and a no-break space.
  const lines = screen.replace(/\u00a0/g, " ").split("\n");
  return lines.some((l, i) => l.startsWith(want) && i > 0 && /^─{10,}/.test(lines[i - 1]!));
}

/** Options for {@link startTmux}. */
export interface TmuxOptions {
  /** Directory for the socket and launcher script (e.g. `Sandbox.tmp`). */
  dir: string;
  /** argv of the command to run in the pane. */
  command: string[];
  /** Complete environment for the command (e.g. `Sandbox.env`); TERM defaults to xterm-256color. */
  env: Record<string, string>;
  cwd: string;
  width?: number;
  height?: number;
  name?: string;
  /** The window's name (`new-session -n`); without it tmux names the window after the running command. */
  window?: string;
  /** Pass tmux's `TMUX` and `TMUX_PANE` through to the command (a client started in tmux by hand has them). */
  tmuxEnv?: boolean;
}

/** Removes ANSI/VT escape sequences. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>]/g, "");
}

const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Starts a detached tmux session on a private socket running `command` with exactly `env`.
 * The command runs via a launcher script (`env -i … exec cmd`) so the tmux server's own
 * environment never leaks in. The pane stays open after the command exits (remain-on-exit).
 */
export async function startTmux(opts: TmuxOptions): Promise<TmuxSession> {
  const socket = join(opts.dir, "tmux.sock");
  const name = opts.name ?? "e2e";
  const env: Record<string, string> = { TERM: "xterm-256color", ...opts.env };
  const launcher = join(opts.dir, `launch-${name}.sh`);
  const assigns = Object.entries(env)
    .map(([k, v]) => `${k}=${shq(v)}`)
    .join(" \\\n  ");
  writeFileSync(
    launcher,
    `#!/bin/sh\ncd ${shq(opts.cwd)} || exit 1\nexec env -i \\\n  ${assigns} \\\n${
      opts.tmuxEnv ? '  TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" \\\n' : ""
    }  ${opts.command.map(shq).join(" ")}\n`,
  );
  chmodSync(launcher, 0o755);

  const clientEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: env.HOME ?? opts.dir,
    TERM: "xterm-256color",
    TMUX_TMPDIR: opts.dir,
  };
  const tmux = async (...args: string[]): Promise<string> => {
    const p = Bun.spawn(["tmux", "-S", socket, ...args], {
      env: clientEnv,
      stdout: "pipe",
      stderr: "pipe",
      stdin: "ignore",
    });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    if (code !== 0) throw new Error(`tmux ${args.join(" ")} failed (${code}): ${err.trim()}`);
    return out;
  };

  await tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    name,
    ...(opts.window ? ["-n", opts.window] : []),
    "-x",
    String(opts.width ?? 200),
    "-y",
    String(opts.height ?? 50),
    launcher,
  );
  await tmux("set-option", "-t", name, "remain-on-exit", "on").catch(() => {});
  await tmux("set-option", "-g", "history-limit", "5000").catch(() => {});

  const target = `${name}:0.0`;
  const capture = async (o: { ansi?: boolean } = {}): Promise<string> =>
    tmux("capture-pane", "-p", ...(o.ansi ? ["-e"] : []), "-t", target);

  return {
    socket,
    name,
    tmux,
    async sendText(text, enterDelayMs = 150) {
      await tmux("send-keys", "-t", target, "-l", text);
      await Bun.sleep(enterDelayMs);
      const deadline = Date.now() + 5000;
      let echoed = false;
      while (!(echoed = inInputBox(stripAnsi(await capture().catch(() => "")), text)) && Date.now() < deadline)
        await Bun.sleep(100);
      await tmux("send-keys", "-t", target, "Enter");
      return echoed;
    },
    async sendKeys(...keys) {
      await tmux("send-keys", "-t", target, ...keys);
    },
    capture,
    async waitFor(match, timeoutMs = 20_000) {
      const test = typeof match === "function" ? match : (s: string) => match.test(s);
      const deadline = Date.now() + timeoutMs;
      let screen = "";
      for (;;) {
        screen = stripAnsi(await capture().catch(() => screen));
        if (test(screen)) return screen;
        if (Date.now() > deadline)
          throw new Error(`waitFor ${String(match)} timed out after ${timeoutMs} ms; screen:\n${screen}`);
        await Bun.sleep(150);
      }
    },
    async alive() {
      const out = await tmux("display-message", "-p", "-t", target, "#{pane_dead}").catch(() => "1");
      return out.trim() === "0";
    },
    async kill() {
      await tmux("kill-server").catch(() => {});
    },
  };
}

/** The screen with the client's line wrapping undone: each wrapped line's indentation joined back with one space. */
export function unwrapped(screen: string): string {
  return screen.replace(/\n\s+/g, " ");
}
