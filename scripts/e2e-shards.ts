/**
 * Splits the end-to-end tests into shards that `scripts/test-all.sh` runs side by side.
 *
 *   bun scripts/e2e-shards.ts <pinned|newest> <k> <n>   prints shard k of n (1-based), one file per line
 *
 * `pinned` is every file in test/e2e/; `newest` only the files that drive Claude Code (the Codex, Gemini,
 * OpenCode and Prometheus tests do not depend on which Claude Code is pinned, so they run once). Files are
 * dealt out longest first, each to the shard with the least time so far, by the seconds a run took per file
 * (SECONDS, per client: the sum of the test times `bun test` prints for each file, in a whole `npm test`
 * on 2 cores, 3 shards per client side by side); a file not listed counts DEFAULT_S.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Files that do not drive Claude Code: run with the pinned client only. */
export const CLIENT_FREE = [/^codex/, /^gemini/, /^metrics-/, /^opencode/];

/** A file's measured seconds with the pinned client, then the newest (for balancing only; 0: skipped there). */
const SECONDS: Record<string, [number, number?]> = {
  "opencode-cycle.test.ts": [195],
  "mod-cycle.test.ts": [0, 150],
  "opencode.test.ts": [94],
  "mod-cycle-hold.test.ts": [0, 86],
  "continuity.test.ts": [84, 70],
  "respawn-limit.test.ts": [77, 47],
  "gemini.test.ts": [74],
  "run.test.ts": [52, 40],
  "respawn-usage-window.test.ts": [44, 45],
  "respawn.test.ts": [43, 41],
  "handoff.test.ts": [33, 38],
  "respawn-screen.test.ts": [37, 28],
  "window.test.ts": [22, 34],
  "two-sessions.test.ts": [33, 31],
  "respawn-strategies.test.ts": [21, 32],
  "hostile-handoff.test.ts": [19, 21],
  "labels.test.ts": [15, 21],
  "resume.test.ts": [19, 19],
  "harness.test.ts": [18, 13],
  "rate-limits.test.ts": [17, 15],
  "codex.test.ts": [17],
  "task-list.test.ts": [8, 17],
  "auto-compact.test.ts": [0, 16],
  "clear-notice.test.ts": [12, 16],
  "status.test.ts": [16, 10],
  "budget.test.ts": [12, 15],
  "install.test.ts": [11, 15],
  "respawn-compact-noop.test.ts": [14, 14],
  "mod.test.ts": [14, 13],
  "codex-install.test.ts": [14],
  "manual-compact.test.ts": [12, 9],
  "critical-message.test.ts": [9, 9],
  "firstweek.test.ts": [7, 9],
  "track-finalize.test.ts": [7, 9],
  "monitor.test.ts": [9, 9],
  "twin-rewrite.test.ts": [4, 9],
  "trust-agent.test.ts": [4, 7],
  "metrics-prometheus.test.ts": [7],
  "statusline-chain.test.ts": [2, 6],
  "subagent.test.ts": [2, 3],
  "window-older-client.test.ts": [3, 2],
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
