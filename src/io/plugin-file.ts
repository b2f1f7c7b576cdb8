/**
 * The plugin file of a client that loads plugins rather than hook entries (its adapter's `plugin`): where it goes
 * (the user's plugin folder, or the project's with `--project`), writing it, removing it, checking it.
 * Only a file that starts with ctx's marker is ever replaced or removed; folders ctx created for it are
 * removed again when left empty, so install then uninstall leaves the client's config as it was.
 */
import { isAbsolute, join } from "node:path";
import type { PluginShape } from "../core/agents/index.ts";
import { CtxError, type Env } from "../core/deps.ts";
import type { Check } from "../core/settings/diagnose.ts";
import { readFileSafe } from "./fs/read.ts";
import { sys, unlinkQuiet } from "./fs/sys.ts";
import { writeFileAtomic } from "./fs/write.ts";
import { projectRoot, removeEmptyDir } from "./settings-file.ts";

/** The plugin folder and file: the project's (`project` given) or the user's. */
export function pluginPath(env: Env, shape: PluginShape, project?: string): { dir: string; file: string } {
  const base = env[shape.userDir.env];
  const dir = project
    ? join(project, shape.projectDir)
    : join(base && isAbsolute(base) ? base : join(env.HOME ?? "", shape.userDir.home), shape.userDir.sub);
  return { dir, file: join(dir, shape.file) };
}

/** Writes ctx's plugin (running `command`); another file of that name is left alone. Returns the lines to print. */
export function writePlugin(path: { dir: string; file: string }, shape: PluginShape, command: string, dryRun: boolean) {
  const before = readFileSafe(path.file, { maxBytes: 1 << 20 });
  if (before !== undefined && !before.startsWith(shape.marker))
    throw new CtxError(
      1,
      `${path.file} is not ctx's plugin; not changing it`,
      "move it aside and run the command again",
    );
  const text = shape.text(command);
  if (before === text) return [`${path.file}: ctx's plugin is already there`];
  if (dryRun) return [`would write ctx's plugin to ${path.file}`];
  makeDirs(path.dir);
  writeFileAtomic(path.file, text, 0o644);
  return [`wrote ctx's plugin to ${path.file}`];
}

/** Removes ctx's plugin and the folders left empty up to `stop` (exclusive); another file is left alone. */
export function removePlugin(path: { dir: string; file: string }, shape: PluginShape, dryRun: boolean, stop: string) {
  const before = readFileSafe(path.file, { maxBytes: 1 << 20 });
  if (before === undefined) return [`${path.file}: no ctx plugin to remove`];
  if (!before.startsWith(shape.marker)) return [`${path.file} is not ctx's plugin: left alone`];
  if (dryRun) return [`would remove ctx's plugin ${path.file}`];
  unlinkQuiet(path.file);
  for (let dir = path.dir; dir.startsWith(`${stop}/`) && removeEmptyDir(dir); dir = join(dir, "..")) {}
  return [`removed ctx's plugin ${path.file}`];
}

/** Doctor's check of the plugin: there, ctx's, current (as `command` would write it), its binary runnable. */
export function pluginCheck(path: { file: string }, shape: PluginShape, command: string, installCmd: string): Check {
  const name = "plugin";
  const text = readFileSafe(path.file, { maxBytes: 1 << 20 });
  if (text === undefined) return { level: "fail", name, detail: `no ${path.file}`, fix: installCmd };
  if (!text.startsWith(shape.marker))
    return {
      level: "fail",
      name,
      detail: `${path.file} is not ctx's plugin`,
      fix: `move it aside, then ${installCmd}`,
    };
  if (text !== shape.text(command))
    return { level: "warn", name, detail: `${path.file} is from another ctx build or binary`, fix: installCmd };
  return { level: "ok", name, detail: `${path.file} runs ${command}` };
}

// --- internal ---

function makeDirs(dir: string): void {
  const parts = dir.split("/");
  for (let i = 2; i <= parts.length; i++) {
    const d = parts.slice(0, i).join("/");
    try {
      sys().mkdir(d, 0o755);
    } catch {
      // there already (or not ours to make: the write below says so)
    }
  }
}

/** `ctx install` / `ctx uninstall` of a plugin client: prints what it did, returns the exit code. */
export function pluginSetup(
  deps: { env: Env; cwd: string; stdout: (s: string) => void },
  shape: PluginShape,
  opts: { install: boolean; project: boolean; dryRun: boolean; command: string },
): number {
  const root = opts.project ? projectRoot(deps.env, deps.cwd) : undefined;
  const path = pluginPath(deps.env, shape, root);
  const stop = root ?? pluginPath(deps.env, shape).dir.split("/").slice(0, -2).join("/");
  const lines = opts.install
    ? writePlugin(path, shape, opts.command, opts.dryRun)
    : removePlugin(path, shape, opts.dryRun, stop);
  for (const l of lines) deps.stdout(`${l}\n`);
  return 0;
}
