/**
 * ctx's Claude Code plugin on disk: the copy the binary carries (build.ts embeds the repository's
 * plugin/ folder as `CTX_PLUGIN_FILES`), written out by `ctx install` and removed by `ctx uninstall`.
 */
import { lstatSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLIENT_WRITTEN, isClientTsconfig, PLUGIN_PATHS, type PluginFile } from "../../core/plugin/claude-plugin.ts";
import { ensureDir } from "../fs/dirs.ts";
import { unlinkQuiet } from "../fs/sys.ts";
import { writeFileAtomic } from "../fs/write.ts";

declare const CTX_PLUGIN_FILES: Record<string, string> | undefined;

/** The plugin's files as the binary carries them (path → text); from source, the repository's plugin/ folder. */
export function carriedPlugin(): Record<string, string> {
  if (typeof CTX_PLUGIN_FILES === "object" && CTX_PLUGIN_FILES !== null) return CTX_PLUGIN_FILES;
  const dir = join(import.meta.dir, "..", "..", "..", "plugin");
  return Object.fromEntries(PLUGIN_PATHS.map((p) => [p, readFileSync(join(dir, p), "utf8")]));
}

/** Writes `files` into `dir` (atomically, each 0644: the client reads them), making its folders. */
export function writePlugin(dir: string, files: PluginFile[]): void {
  for (const f of files) {
    const path = join(dir, f.path);
    ensureDir(dirname(path), 0o755);
    writeFileAtomic(path, f.text, 0o644);
  }
}

/** The text of one file of the plugin in `dir`, or undefined. */
export function readPluginFile(dir: string, path: string): string | undefined {
  try {
    return lstatSync(join(dir, path)).isFile() ? readFileSync(join(dir, path), "utf8") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the plugin in `dir`: ctx's files, what the client wrote there (its declarations), then the
 * folders when left empty. Anything else someone put there stays, and so do the folders holding it.
 * Returns true when the folder is gone.
 */
export function removePlugin(dir: string): boolean {
  for (const p of PLUGIN_PATHS) unlinkQuiet(join(dir, p));
  const tsconfig = readPluginFile(dir, "tsconfig.json");
  if (tsconfig !== undefined && isClientTsconfig(tsconfig)) unlinkQuiet(join(dir, "tsconfig.json"));
  const types = join(dir, CLIENT_WRITTEN);
  try {
    if (lstatSync(types).isDirectory()) rmSync(types, { recursive: true });
  } catch {
    // not there
  }
  for (const d of ["hooks", ".claude-plugin", ""]) {
    try {
      rmdirSync(join(dir, d));
    } catch {
      // not empty, or gone
    }
  }
  try {
    lstatSync(dir);
    return false;
  } catch {
    return true;
  }
}
