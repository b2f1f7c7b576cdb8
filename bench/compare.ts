/**
 * Before and after, in one sitting: the hook path (`ctx statusline`, `ctx
 * monitor`) of two builds, each as a ratio against the same build's
 * `ctx --version` (process start alone), so a refactor can show the hooks got
 * no slower. Runs interleaved, in temp dirs only.
 *
 *   bun bench/compare.ts --rev <git rev>      builds <rev> in a temp worktree
 *   bun bench/compare.ts --before <binary>    an existing build
 *
 * "after" is dist/ctx (`bun build.ts` first).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CTX, hookInputs, medians, timeOnce } from "./lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 60);

/** The three timings of one build, in ms (medians). */
export interface HookTimes {
  version: number;
  statusline: number;
  monitor: number;
}

/** Times `--version`, `statusline` and `monitor` of each binary, interleaved, in one sandbox per binary. */
export function hookTimes(binaries: Record<string, string>, runs = RUNS): Record<string, HookTimes> {
  const cands: Record<string, () => number> = {};
  for (const [label, bin] of Object.entries(binaries)) {
    const s = hookInputs();
    timeOnce([bin, "statusline"], s.statusIn, s.env); // writes the bridge the monitor reads
    cands[`${label}/version`] = () => timeOnce([bin, "--version"], s.statusIn, s.env);
    cands[`${label}/statusline`] = () => timeOnce([bin, "statusline"], s.statusIn, s.env);
    cands[`${label}/monitor`] = () => timeOnce([bin, "monitor"], s.hookIn, s.env);
  }
  const m = medians(cands, runs);
  return Object.fromEntries(
    Object.keys(binaries).map((label) => [
      label,
      { version: m[`${label}/version`]!, statusline: m[`${label}/statusline`]!, monitor: m[`${label}/monitor`]! },
    ]),
  );
}

/** The report: each hook relative to `--version`, before and after. */
export function report(t: Record<string, HookTimes>): string {
  const lines = ["| build | --version | statusline | statusline / --version | monitor | monitor / --version |"];
  lines.push("|---|---|---|---|---|---|");
  for (const [label, x] of Object.entries(t)) {
    const ms = (n: number) => `${n.toFixed(2)} ms`;
    lines.push(
      `| ${label} | ${ms(x.version)} | ${ms(x.statusline)} | ${(x.statusline / x.version).toFixed(2)}x | ${ms(x.monitor)} | ${(x.monitor / x.version).toFixed(2)}x |`,
    );
  }
  return lines.join("\n");
}

// --- internal ---

function buildRev(rev: string): { bin: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-rev-"));
  const tree = join(dir, "tree");
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd: join(import.meta.dir, ".."), stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  };
  git("worktree", "add", "--detach", tree, rev);
  const cleanup = () => {
    git("worktree", "remove", "--force", tree);
    rmSync(dir, { recursive: true, force: true });
  };
  const b = Bun.spawnSync([process.execPath, "build.ts"], { cwd: tree, stdout: "pipe", stderr: "pipe" });
  if (b.exitCode !== 0) {
    cleanup();
    throw new Error(`building ${rev} failed: ${b.stderr.toString()}`);
  }
  return { bin: join(tree, "dist", "ctx"), cleanup };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { rev: { type: "string" }, before: { type: "string" } } });
  if (!values.rev && !values.before) throw new Error("usage: bun bench/compare.ts --rev REV | --before BINARY");
  const built = values.rev ? buildRev(values.rev) : undefined;
  try {
    const before = built?.bin ?? values.before!;
    const t = hookTimes({ [`before (${values.rev ?? before})`]: before, after: CTX });
    console.log(report(t));
  } finally {
    built?.cleanup();
  }
}
