/**
 * POSIX path helpers for the hooks' hot path (node:path works too, but every
 * module a hook loads costs start-up time).
 */

/** Joins path segments with `/`, collapsing repeated slashes. */
export function join(...parts: string[]): string {
  return parts
    .filter((p) => p !== "")
    .join("/")
    .replace(/\/{2,}/g, "/");
}

/** The directory part of a path: `/a/b` → `/a`, `b` → `.`. */
export function dirname(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const i = trimmed.lastIndexOf("/");
  if (i < 0) return ".";
  return i === 0 ? "/" : trimmed.slice(0, i);
}

/** The last segment of a path. */
export function basename(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** True for an absolute path. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}
