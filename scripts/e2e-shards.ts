/**
 * Splits the end-to-end tests into shards that `scripts/test-all.sh` runs side by side.
 *
 *   bun scripts/e2e-shards.ts <pinned|newest> <k> <n>   prints shard k of n (1-based), one file per line
 *
 * `pinned` is every file in test/e2e/; `newest` only the files that drive Claude Code (the Codex, Gemini,
 * OpenCode and Prometheus tests do not depend on which Claude Code is pinned, so they run once). Files are
 * dealt out longest first, each to the shard with the least time so far, by the seconds a run took per file
 * (SECONDS, per client, measured with `bun test test/e2e --reporter=junit --reporter-outfile=FILE`, the sum of the
 * testcase times of each file, both clients side by side on 2 cores); a file not listed counts DEFAULT_S.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Files that do not drive Claude Code: run with the pinned client only. */
export const CLIENT_FREE = [/^codex/, /^gemini/, /^metrics-/, /^opencode/];

/** A file's measured seconds with the pinned client, then the newest (for balancing only; 0: skipped there). */
const SECONDS: Record<string, [number, number?]> = {
  "opencode-cycle.test.ts": [200],
  "mod-cycle.test.ts": [0, 161],
  "mod-cycle-hold.test.ts": [0, 82],
  "opencode.test.ts": [97],
  "respawn-limit.test.ts": [72, 75],
  "continuity.test.ts": [70, 62],
  "respawn-usage-window.test.ts": [44, 44],
  "respawn.test.ts": [44, 43],
  "run.test.ts": [40, 40],
  "respawn-screen.test.ts": [36, 33],
  "two-sessions.test.ts": [31, 30],
  "handoff.test.ts": [27, 30],
  "respawn-strategies.test.ts": [29, 28],
  "hostile-handoff.test.ts": [27, 21],
  "task-list.test.ts": [23, 25],
  "respawn-compact-noop.test.ts": [20, 16],
  "resume.test.ts": [20, 9],
  "gemini.test.ts": [18],
  "window.test.ts": [18, 15],
  "labels.test.ts": [15, 17],
  "monitor.test.ts": [17, 15],
  "codex-install.test.ts": [15],
  "rate-limits.test.ts": [15, 14],
  "status.test.ts": [13, 14],
  "clear-notice.test.ts": [7, 13],
  "harness.test.ts": [13, 8],
  "codex.test.ts": [12],
  "critical-message.test.ts": [10, 12],
  "twin-rewrite.test.ts": [10, 11],
  "track-finalize.test.ts": [9, 6],
  "trust-agent.test.ts": [9, 8],
  "install.test.ts": [8, 6],
  "manual-compact.test.ts": [6, 8],
  "mod.test.ts": [6, 7],
  "subagent.test.ts": [7, 7],
  "metrics-prometheus.test.ts": [6],
  "auto-compact.test.ts": [0, 5],
  "budget.test.ts": [3, 5],
  "firstweek.test.ts": [3, 5],
  "window-older-client.test.ts": [5, 4],
  "statusline-chain.test.ts": [2, 4],
};
/** Seconds assumed for a file SECONDS does not list yet. */
const DEFAULT_S = 20;

/** The e2e test files a run with `client` takes, by name. */
export function e2eFiles(dir: string, client: "pinned" | "newest"): string[] {
  const all = readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .sort();
  return client === "pinned" ? all : all.filter((f) => !CLIENT_FREE.some((re) => re.test(f)));
}

/** Deals `files` into `n` shards, longest first to the least loaded (ties: the lower shard). */
export function shard(files: string[], n: number, seconds: (f: string) => number): string[][] {
  const shards = Array.from({ length: n }, () => ({ files: [] as string[], s: 0 }));
  const byTime = [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
  for (const f of byTime) {
    const least = shards.reduce((m, x) => (x.s < m.s ? x : m));
    least.files.push(f);
    least.s += seconds(f);
  }
  return shards.map((x) => x.files.sort());
}

/** The measured seconds of a file with `client`, or DEFAULT_S. */
export function secondsOf(client: "pinned" | "newest", file: string): number {
  const s = SECONDS[file];
  return (client === "pinned" ? s?.[0] : s?.[1]) ?? DEFAULT_S;
}

if (import.meta.main) {
  const [client, k, n] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  if ((client !== "pinned" && client !== "newest") || !(n >= 1) || !(k >= 1 && k <= n)) {
    console.error("usage: bun scripts/e2e-shards.ts <pinned|newest> <k> <n>");
    process.exit(2);
  }
  const dir = join(import.meta.dir, "..", "test", "e2e");
  for (const f of shard(e2eFiles(dir, client), n, (f) => secondsOf(client, f))[k - 1]!) console.log(`./test/e2e/${f}`);
}
