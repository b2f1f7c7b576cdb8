/**
 * A thin tmux client. It runs the `tmux` found on PATH with the caller's
 * environment, so the default server is used and `TMUX_TMPDIR` and `TMUX`
 * are honoured exactly as tmux itself honours them.
 */

import { prepareLaunch } from "./pane-env.ts";
import type { Env } from "../../core/deps.ts";

/** A failed tmux command. */
export class TmuxError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number,
    readonly stderrText: string,
  ) {
    super(`tmux ${args[0] ?? ""} failed (${code}): ${stderrText.trim()}`);
  }
}

/** What `paneInfo` reports. */
export interface PaneInfo {
  /** The unique pane id, e.g. `%3`. */
  id: string;
  /** The pane's process id (the command it runs). */
  pid: number;
  /** True once the pane's command has exited (remain-on-exit). */
  dead: boolean;
  /** The pane's working directory. */
  path: string;
}

/** The tmux operations the supervisor needs. */
export interface Tmux {
  /** Runs `tmux <args>` and returns stdout; throws TmuxError on a non-zero exit. */
  run(args: string[]): Promise<string>;
  /** Creates a detached session running `argv` in `cwd` with `env` set; returns its pane id. */
  newSession(
    name: string,
    cwd: string,
    argv: string[],
    env: Env,
    size?: { width: number; height: number },
  ): Promise<string>;
  /** True when a session of that name exists. */
  hasSession(name: string): Promise<boolean>;
  /** The pane's visible text (no ANSI). */
  capture(target: string): Promise<string>;
  /** Types `text` literally (`send-keys -l`), then Enter as a separate key after `enterDelayMs`. */
  sendText(target: string, text: string, enterDelayMs: number): Promise<void>;
  /** Sends key names (`Enter`, `Escape`). */
  sendKeys(target: string, keys: string[]): Promise<void>;
  /** The pane's id, pid, liveness and directory. */
  paneInfo(target: string): Promise<PaneInfo>;
  /** Shows a message on the clients attached to the pane's session (ignored when none). */
  message(target: string, text: string): Promise<void>;
}

/** Environment variables that must not be handed to the program inside the pane. */
const PANE_ENV_SKIP = new Set(["TMUX", "TMUX_PANE", "_"]);

/** A tmux client using `bin` (default `tmux`) with `env`. */
export function tmuxClient(env: Env, bin = "tmux"): Tmux {
  const run = (args: string[]) => runTmux(bin, args, env);
  return {
    run,
    async newSession(name, cwd, argv, paneEnv, size = { width: 200, height: 50 }) {
      // No value goes on a command line (ps shows it, and a server this command starts keeps it):
      // the variables travel in a private file that the pane's launcher reads and deletes.
      const set = Object.fromEntries(
        Object.entries(paneEnv).filter(([k, v]) => v !== undefined && !PANE_ENV_SKIP.has(k) && !k.includes("=")),
      );
      // A running server adds its global environment under ours: unset what we do not have.
      const stray = strayGlobals(await run(["show-environment", "-g"]).catch(() => ""), paneEnv);
      const launch = prepareLaunch(paneEnv, set, stray, argv);
      let out: string;
      try {
        out = await run([
          "new-session",
          "-d",
          "-P",
          "-F",
          "#{pane_id}",
          "-s",
          name,
          "-x",
          String(size.width),
          "-y",
          String(size.height),
          "-c",
          cwd,
          "--",
          ...launch.command,
        ]);
      } catch (err) {
        launch.discard();
        throw err;
      }
      await launch.settle();
      return out.trim();
    },
    async hasSession(name) {
      return run(["has-session", "-t", `=${name}`]).then(
        () => true,
        () => false,
      );
    },
    capture: (target) => run(["capture-pane", "-p", "-t", target]),
    async sendText(target, text, enterDelayMs) {
      await run(["send-keys", "-t", target, "-l", "--", text]);
      await Bun.sleep(enterDelayMs);
      await run(["send-keys", "-t", target, "Enter"]);
    },
    async sendKeys(target, keys) {
      await run(["send-keys", "-t", target, ...keys]);
    },
    async paneInfo(target) {
      if (target.trim() === "") throw new TmuxError(["display-message"], 1, "no pane named: the target is empty");
      // tmux turns tabs into "_": space-separated, with the path (which may hold spaces) last.
      const out = await run([
        "display-message",
        "-p",
        "-t",
        target,
        "#{pane_id} #{pane_pid} #{?pane_dead,1,0} #{pane_current_path}",
      ]);
      const [id = "", pid = "0", dead = "0", ...path] = out.replace(/\n$/, "").split(" ");
      // tmux answers an unknown target with an empty line and exit 0 (and an empty target means its
      // default pane): without a real pane id, there is no such pane.
      if (!/^%\d+$/.test(id)) throw new TmuxError(["display-message", "-t", target], 1, `can't find pane: ${target}`);
      return { id, pid: Number(pid), dead: dead === "1", path: path.join(" ") };
    },
    async message(target, text) {
      await run(["display-message", "-t", target, text]).catch(() => {});
    },
  };
}

// --- internal ---

/** Variables set in the server's global environment (`show-environment -g`) that `paneEnv` lacks; tmux's own are kept. */
function strayGlobals(globals: string, paneEnv: Env): string[] {
  return globals
    .split("\n")
    .map((line) => line.slice(0, line.indexOf("=")))
    .filter(
      (k) =>
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) &&
        paneEnv[k] === undefined &&
        !PANE_ENV_SKIP.has(k) &&
        k !== "TERM" &&
        !k.startsWith("TMUX"),
    );
}

async function runTmux(bin: string, args: string[], env: Env): Promise<string> {
  const proc = Bun.spawn([bin, ...args], {
    env: env as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new TmuxError(args, code, err);
  return out;
}
