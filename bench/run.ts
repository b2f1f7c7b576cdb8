/**
 * Every benchmark in one run, as one table of figures measured together, each
 * with its target from the issues and pass/FAIL: `npm run bench` (builds
 * first), `bun bench/run.ts --write` also writes bench/RESULTS.md with the
 * machine description. Uses temp dirs only, never the real home.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchHooks } from "./hooks.ts";
import { benchRetention } from "./retention.ts";
import { CTX, median, type Row } from "./lib.ts";

/** The pointer to the summary-truth benchmark, kept at the end of bench/RESULTS.md. */
const TRUTH_NOTE =
  "## Summary truth\n\nHow true the handoff summary is on labelled real transcripts is measured apart: `npm run bench:truth`; the corpus, the scoring and the recorded scores are in [corpus/README.md](corpus/README.md).";

/** A result row; `pass: null` is a figure reported without a target in the issues. */
export interface Result extends Omit<Row, "pass"> {
  pass: boolean | null;
  /** Why a figure failed or could not be measured. */
  note?: string;
}

/** The machine, for the report. */
export function machine(): string[] {
  const cpu = /model name\s*:\s*(.+)/.exec(read("/proc/cpuinfo"))?.[1] ?? "unknown CPU";
  const memKb = Number(/MemTotal:\s+(\d+)/.exec(read("/proc/meminfo"))?.[1] ?? 0);
  const os = /PRETTY_NAME="?([^"\n]+)/.exec(read("/etc/os-release"))?.[1] ?? process.platform;
  const kernel = Bun.spawnSync(["uname", "-r"]).stdout.toString().trim();
  const cores = navigator.hardwareConcurrency;
  const load = read("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  return [
    `CPU: ${cpu}, ${cores} cores`,
    `load average at the start: ${load}`,
    `RAM: ${(memKb / 1048576).toFixed(1)} GiB`,
    `OS: ${os}, Linux ${kernel}`,
    `bun ${Bun.version}; Node.js ${nodeVersion()}`,
  ];
}

/** `ctx finalize` on a generated transcript of `mb` MB, through bench/finalize.ts. */
export function benchFinalize(mb: number): Result[] {
  const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "finalize.ts"), String(mb)], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = r.stdout.toString();
  const m = /ctx finalize: exit (\d+), ([\d.]+) s, peak RSS (\d+) MB/.exec(out);
  if (!m || m[1] !== "0") {
    const note = `bench/finalize.ts ${mb} failed: ${(out + r.stderr.toString()).trim().split("\n").slice(-3).join(" / ")}`;
    return [
      {
        figure: `finalize, ${mb} MB transcript`,
        measured: "not measured",
        target: "in seconds, RSS < 200 MB",
        pass: false,
        note,
      },
    ];
  }
  const seconds = Number(m[2]);
  const rss = Number(m[3]);
  return [
    {
      figure: `finalize time, ${mb} MB transcript`,
      measured: `${seconds.toFixed(2)} s`,
      target: '<= 10 s ("in seconds")',
      pass: seconds <= 10,
    },
    { figure: `finalize peak RSS, ${mb} MB transcript`, measured: `${rss} MB`, target: "< 200 MB", pass: rss < 200 },
  ];
}

/** The respawn supervisor's CPU on an idle pane: bench/respawn-idle.ts's rows, when it is in the tree. */
export async function respawnIdleRows(): Promise<Result[]> {
  const file = join(import.meta.dir, "respawn-idle.ts");
  const none = (note: string): Result[] => [
    {
      figure: "respawn supervisor CPU, idle pane",
      measured: "not measured",
      target: "< 2 % of one core",
      pass: false,
      note,
    },
  ];
  if (!existsSync(file)) return none("bench/respawn-idle.ts is not in the tree yet");
  try {
    const mod = (await import(file)) as { benchRespawnIdle?: () => Promise<Row[]> };
    if (typeof mod.benchRespawnIdle !== "function") return none("bench/respawn-idle.ts exports no benchRespawnIdle()");
    return await mod.benchRespawnIdle();
  } catch (err) {
    return none(`bench/respawn-idle.ts failed: ${(err as Error).message}`);
  }
}

/** The binary's size, and `ctx --version` started cold (page cache dropped) and warm. */
export function benchStartup(): Result[] {
  const size = statSync(CTX).size / 1048576;
  const once = () => {
    const t = Bun.nanoseconds();
    Bun.spawnSync([CTX, "--version"], { stdout: "ignore" });
    return (Bun.nanoseconds() - t) / 1e6;
  };
  const cold: number[] = [];
  for (let i = 0; i < 5 && dropCaches(); i++) cold.push(once());
  once();
  const warm = Array.from({ length: 30 }, once);
  const rows: Result[] = [
    {
      figure: "binary size (dist/ctx, bun runtime included)",
      measured: `${size.toFixed(1)} MB`,
      target: "none set in the issues",
      pass: null,
    },
  ];
  rows.push(
    cold.length
      ? {
          figure: "cold start, `ctx --version` after dropping the page cache (median of 5)",
          measured: `${median(cold).toFixed(1)} ms`,
          target: "none set in the issues",
          pass: null,
        }
      : {
          figure: "cold start",
          measured: "not measured",
          target: "none set in the issues",
          pass: null,
          note: "dropping the page cache is not permitted here (needs root): only the warm start is reported",
        },
  );
  rows.push({
    figure: "warm start, `ctx --version` (median of 30)",
    measured: `${median(warm).toFixed(1)} ms`,
    target: "none set in the issues",
    pass: null,
  });
  return rows;
}

/** The table, in Markdown. */
export function render(rows: Result[]): string {
  const lines = ["| figure | measured | target | result |", "|---|---|---|---|"];
  for (const r of rows)
    lines.push(
      `| ${r.figure} | ${r.measured} | ${r.target} | ${r.pass === null ? "info" : r.pass ? "pass" : "FAIL"} |`,
    );
  const notes = rows.filter((r) => r.note || r.pass === false);
  if (notes.length)
    lines.push(
      "",
      ...notes.map(
        (r) =>
          `- **${r.pass === false ? "FAIL" : "note"}: ${r.figure}**: ${r.note ?? `measured ${r.measured}, target ${r.target}`}`,
      ),
    );
  return lines.join("\n");
}

// --- internal ---

/** A hook row against `cat` that fails gets the reason: how much of it is the runtime's bare start-up. */
function explainStartupFloor(rows: Result[]): void {
  const warm = rows.find((r) => r.figure.startsWith("warm start"));
  const floorMs = warm ? parseFloat(warm.measured) : NaN;
  for (const r of rows) {
    const m = /^(\w+) vs cat \(([\d.]+) ms vs ([\d.]+) ms\)/.exec(r.figure);
    if (!m || r.pass !== false || !Number.isFinite(floorMs)) continue;
    const [ctxMs, catMs] = [Number(m[2]), Number(m[3])];
    const floorX = floorMs / catMs;
    const budgetMs = 8 * catMs - floorMs;
    r.note =
      `the bun runtime's bare start-up (\`ctx --version\`, ${floorMs.toFixed(1)} ms) is ${floorX.toFixed(1)}x cat (${catMs.toFixed(1)} ms) by itself; ${m[1]}'s own work adds ${Math.max(0, ctxMs - floorMs).toFixed(1)} ms (config, state and bridge I/O with fsync); ` +
      (floorX >= 8
        ? "a bun-compiled binary cannot meet 8x cat on this machine."
        : `8x cat leaves only ${budgetMs.toFixed(1)} ms for that work above the start-up.`) +
      " The figures are wall times on a 2-core machine shared with other jobs (see the load average above).";
  }
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function nodeVersion(): string {
  try {
    return Bun.spawnSync(["node", "--version"]).stdout.toString().trim() || "absent";
  } catch {
    return "absent";
  }
}

function dropCaches(): boolean {
  try {
    Bun.spawnSync(["sync"]);
    writeFileSync("/proc/sys/vm/drop_caches", "3\n");
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  if (!existsSync(CTX)) throw new Error(`${CTX} is missing: run 'bun build.ts' (npm run bench does)`);
  const started = performance.now();
  const step = (name: string) => console.error(`bench: ${name}…`);
  step("statusline and monitor per call; monitor on 1 MB vs 200 MB");
  const rows: Result[] = benchHooks();
  step("status and the SessionStart hooks at 5,000 sessions and 2,000 summaries; prune");
  rows.push(...benchRetention());
  step("finalize on 20 MB and 200 MB");
  rows.push(...benchFinalize(20), ...benchFinalize(200));
  step("respawn idle CPU");
  rows.push(...(await respawnIdleRows()));
  step("binary size and start-up");
  rows.push(...benchStartup());
  explainStartupFloor(rows);
  const table = render(rows);
  console.log(table);
  const failed = rows.filter((r) => r.pass === false).length;
  console.error(
    `bench: ${rows.length} figures, ${failed} FAIL, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (process.argv.includes("--write")) {
    const when = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    const doc = `# Benchmark results\n\nMeasured by \`bun bench/run.ts --write\` (\`npm run bench\` prints the same table) on ${when}.\nEvery ratio compares figures measured in this same run.\n\n## Machine\n\n${machine()
      .map((l) => `- ${l}`)
      .join("\n")}\n\n## Results\n\n${table}\n\n${TRUTH_NOTE}\n`;
    writeFileSync(join(import.meta.dir, "RESULTS.md"), doc);
    console.error("bench: wrote bench/RESULTS.md");
  }
}
