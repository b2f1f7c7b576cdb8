/** Running git: every call is bounded (2 s, 4 MiB of output) and any failure gives null, never an error. */
import { spawnSync } from "node:child_process";

/** The standard output of `git -C <cwd> <args>`, or null when git fails, is missing or times out. */
export function git(cwd: string, args: string[]): string | null {
  try {
    const r = spawnSync("git", ["-C", cwd, ...args], {
      encoding: "utf8",
      timeout: 2000,
      maxBuffer: 4 * 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return r.status === 0 && typeof r.stdout === "string" ? r.stdout : null;
  } catch {
    return null;
  }
}

/** `git status --short` lines of `dir`, or null when it is not in a repository (2 s at most). */
export function gitStatus(dir: string): string[] | null {
  const out = git(dir, ["status", "--short", "--", ".", ":(exclude).ctx"]);
  if (out === null) return null;
  // ctx's own state is not the project's work (the pathspec misses it when git runs in a subdirectory).
  return out.split("\n").filter((l) => l.trim() !== "" && !/^.. "?\.ctx\//.test(l));
}

/** `git status --short` lines without those of `files` (absolute), which are relative to `project` there. */
export function withoutFiles(lines: string[] | null, files: string[] | undefined, project: string): string[] | null {
  if (!lines || !files?.length) return lines;
  const names = files.map((f) => (f.startsWith(`${project}/`) ? f.slice(project.length + 1) : f));
  return lines.filter((l) => !names.some((n) => l.slice(3) === n));
}
