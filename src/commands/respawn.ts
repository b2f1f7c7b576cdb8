import { randomBytes } from "node:crypto";
/**
 * `ctx respawn start|attach|stop`: supervises a Claude Code session in tmux
 * and keeps it working across context exhaustion (docs/respawn.md).
 */
import { basename } from "node:path";
import { CtxError, type Deps, type Env } from "../core/deps.ts";
import { parseRespawnArgs, type RespawnArgs } from "./respawn-args.ts";
import { layout, STATE_DIRS } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import { findProject } from "../io/project.ts";
import { settingsFromConfig } from "../core/respawn/settings.ts";
import { reading } from "../core/usage.ts";
import { latestUsage } from "../io/transcript/tail.ts";
import { sessionWindow } from "../io/session/usage-source.ts";
import { findClaude } from "../io/resume/claude-launch.ts";
import { isValidTaskId } from "../core/track/stamp.ts";
import { shellQuote } from "../core/shell.ts";
import { loadConfig } from "../io/config.ts";
import { realDirsUnder } from "../io/fs/dirs.ts";
import { runDriver } from "../io/respawn/driver.ts";
import { checkPaneClient } from "../io/respawn/foreground.ts";
import { daemonFailure, daemonize, liveConflict, stopSupervisors } from "../io/respawn/process.ts";
import { tmuxClient } from "../io/respawn/tmux.ts";

export { parseRespawnArgs, type RespawnArgs } from "./respawn-args.ts";

/** `ctx respawn`. Returns the exit code. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const args = parseRespawnArgs(argv);
  const project = findProject(deps.env, deps.cwd);
  const root = stateRoot(deps.env, project);
  if (!realDirsUnder(root, STATE_DIRS.respawn))
    throw new CtxError(
      1,
      `${root} (or a directory under it) is a symlink or not a directory: ctx keeps no state through it`,
      "remove the link (a cloned repository may have planted it), or set CTX_DIR to a real directory",
    );
  if (args.action === "stop") {
    const stopped = await stopSupervisors(root, args.name);
    if (!stopped.length)
      throw new CtxError(
        1,
        args.name ? `no running supervisor '${args.name}'` : "no running supervisor in this project",
        "list them in <project>/.ctx/state/respawn/",
      );
    deps.stdout(stopped.map((s) => stoppedText(s.name, s.target)).join(""));
    return 0;
  }
  const name = args.name ?? defaultName(args, project);
  await refuseDuplicate(args, name, root, deps);
  if (args.daemon && !deps.env.CTX_RESPAWN_DAEMON) {
    const d = daemonize(
      argv.filter((a, i) => a !== "--daemon" || (argv.indexOf("--") >= 0 && i > argv.indexOf("--"))),
      root,
      name,
      deps,
    );
    const failed = await daemonFailure(d);
    if (failed) {
      deps.stderr(
        failed.output
          .trimEnd()
          .split("\n")
          .slice(-20)
          .map((l) => `${l}\n`)
          .join(""),
      );
      throw new CtxError(
        1,
        `the background supervisor '${name}' exited at once (exit code ${failed.code})`,
        `its log: ${d.log}`,
      );
    }
    const pane = args.action === "start" ? name : args.target!;
    deps.stdout(
      `ctx respawn: supervising '${name}' in the background (pid ${d.pid}); state in ${layout(root).respawnRecord(name)}\n` +
        `see the session with: tmux attach -t ${shellQuote(pane)}\n`,
    );
    return 0;
  }
  return supervise(args, name, project, root, deps);
}

// --- internal ---

/** What `stop` did, and what it left: the client runs on in its pane until the user ends it. */
function stoppedText(name: string, target: string): string {
  const t = shellQuote(target);
  return (
    `stopped ${name}: supervision only; the client keeps running in tmux pane ${target}\n` +
    `  see it with 'tmux attach -t ${t}'; end it with /exit there, or 'tmux kill-pane -t ${t}'\n`
  );
}

function defaultName(args: RespawnArgs, project: string): string {
  const base = args.action === "attach" ? `attach-${args.target}` : `ctx-${basename(project)}`;
  return base.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "ctx";
}

/** One supervisor per name and per pane: a live one already there is an error (exit 1) that says how to stop it. */
async function refuseDuplicate(args: RespawnArgs, name: string, root: string, deps: Deps): Promise<void> {
  const pane =
    args.action === "attach"
      ? await tmuxClient(deps.env)
          .paneInfo(args.target!)
          .then(
            (i) => i.id,
            () => undefined,
          )
      : undefined;
  const rec = liveConflict(root, name, pane);
  if (!rec) return;
  const what =
    rec.name === name
      ? `a supervisor named '${name}' is already running`
      : `pane ${pane} (${args.target}) is already supervised by '${rec.name}'`;
  throw new CtxError(
    1,
    `${what} (pid ${rec.pid}, pane ${rec.target})`,
    `stop it first with 'ctx respawn stop --name ${rec.name}'`,
  );
}

/**
 * The environment of the client `start` runs: one chain for all its cycles.
 * `CTX_TASK_ID` (kept when set, else a new `chain-<8 hex>`) and, unless already
 * set, `CLAUDE_CODE_TASK_LIST_ID` with the same id, so the client's task list
 * is the chain's (`~/.claude/tasks/<id>/`).
 */
function chainEnv(env: Env): Env {
  const task = isValidTaskId(env.CTX_TASK_ID) ? env.CTX_TASK_ID : `chain-${randomBytes(4).toString("hex")}`;
  const list = isValidTaskId(env.CLAUDE_CODE_TASK_LIST_ID) ? env.CLAUDE_CODE_TASK_LIST_ID : task;
  return { ...env, CTX_TASK_ID: task, CLAUDE_CODE_TASK_LIST_ID: list };
}

async function supervise(args: RespawnArgs, name: string, project: string, root: string, deps: Deps): Promise<number> {
  const cfg = loadConfig(deps, project, { sayIgnored: true });
  const tmux = tmuxClient(deps.env);
  const claude = findClaude(deps.env, deps.cwd);
  let target: string;
  if (args.action === "start") {
    if (await tmux.hasSession(name))
      throw new CtxError(
        1,
        `a tmux session '${name}' already exists`,
        `supervise it with 'ctx respawn attach --target ${name}', or pick another --name`,
      );
    target = await tmux.newSession(name, project, [claude, ...args.claudeArgs], chainEnv(deps.env));
    deps.stderr(`ctx respawn: started claude in tmux session '${name}' (attach with: tmux attach -t ${name})\n`);
  } else {
    const info = await tmux.paneInfo(args.target!).catch((e) => {
      throw new CtxError(1, `no tmux pane '${args.target}': ${(e as Error).message}`);
    });
    // Only a pane whose foreground is Claude Code is typed into (the driver checks again before every key).
    const fg = checkPaneClient(info.pid);
    if (!fg.ok)
      throw new CtxError(
        1,
        `pane ${args.target} does not run Claude Code: ${fg.why}`,
        "attach to the pane claude runs in",
      );
    target = info.id;
  }
  const ac = new AbortController();
  const onSignal = (): void => ac.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const final = await runDriver({
      name,
      target,
      project,
      root,
      env: deps.env,
      settings: settingsFromConfig(cfg),
      pollMs: cfg["respawn.poll_ms"],
      enterDelayMs: cfg["respawn.enter_delay_ms"],
      tmux,
      claude,
      now: deps.now,
      signal: ac.signal,
      log: (line) => deps.stderr(`ctx respawn: ${line}\n`),
      transcriptPct: (path, sessionId) => {
        const tail = latestUsage(path, cfg["monitor.tail_bytes"]);
        if (!tail) return undefined;
        const q = { sessionId, model: tail.model, clientVersion: tail.clientVersion, usedTokens: tail.usedTokens };
        return reading(tail.usedTokens, sessionWindow(deps.env, cfg, q, { root, project }).window).usedPct;
      },
    });
    deps.stderr(`ctx respawn: stopped (${final.reason ?? "done"}) after ${final.cycles} cycle(s)\n`);
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
