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

/** Resolves `.` and `..` segments and repeated slashes without touching the disk, as node:path's `normalize` does (no trailing slash). */
export function normalize(path: string): string {
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg !== "..") out.push(seg);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  const joined = out.join("/");
  return absolute ? `/${joined}` : joined || ".";
}
