/** Small formatting helpers shared by the status table and the resume hint. Pure. */

/** A short age such as `45s`, `12m`, `3h`, `2d`. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** Keeps the end of a long text: `…/work/project`. */
export function truncateLeft(s: string, max: number): string {
  return s.length > max ? `…${s.slice(s.length - max + 1)}` : s;
}

/** Keeps the start of a long text: `claude-sonnet-4…`. */
export function truncateRight(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** `/home/u/x` → `~/x` when `home` is given. */
export function tildify(path: string, home: string | undefined): string {
  if (!home || home === "/") return path;
  const h = home.replace(/\/+$/, "");
  return path === h ? "~" : path.startsWith(`${h}/`) ? `~${path.slice(h.length)}` : path;
}
