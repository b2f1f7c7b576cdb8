/** Parts of the handoff summary's text: the session list, what happened to a file, git status. Pure. */
import type { ChainFile, SummaryTwin } from "./chain.ts";

/** The chain's sessions: all when few, else the first, a count and the newest ones. */
export function sessionList(t: SummaryTwin, limit: number): string {
  const ids = t.sessions;
  const keep = Math.max(2, Math.floor(limit / 3));
  if (ids.length + t.sessions_dropped <= keep + 2) return ids.join(" → ");
  const hidden = ids.length - keep - 1 + t.sessions_dropped;
  return [ids[0], `… ${hidden} more`, ...ids.slice(-keep)].join(" → ");
}

/** What happened to a file: the tools that changed it, a move, a deletion. */
export function fileOps(x: ChainFile): string {
  const parts = [
    ...(x.from ? [`moved from \`${x.from}\``] : []),
    ...(x.ops ? [x.ops] : []),
    ...(x.deleted ? ["deleted"] : []),
  ];
  return parts.join(", ") || "changed";
}

/** The `git status --short` lines of the summary (none outside a repository). */
export function gitLines(status: string[] | null, limit: number): string[] {
  if (status === null) return [];
  if (status.length === 0) return ["", "git status: clean"];
  const kept = status.slice(0, limit * 2).map((l) => `    ${l}`);
  const more = status.length > kept.length ? [`    … ${status.length - kept.length} more`] : [];
  return ["", "git status --short:", "", ...kept, ...more];
}
