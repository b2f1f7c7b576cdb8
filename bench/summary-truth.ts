/**
 * Summary truth on real transcripts: runs `ctx finalize` on every transcript of
 * bench/corpus/ that has a labelled answer (`<name>.label.json`), reads the summary
 * and its JSON twin, and prints a score per field per transcript and overall
 * (bench/truth-score.ts; the rules and the corpus: bench/corpus/README.md).
 *
 * Each transcript is finalized twice, each time in a fresh sandbox (HOME, XDG_*,
 * TMPDIR) against a fresh git repository: once as a typed command, once as a Claude
 * Code hook runs it (CLAUDECODE=1 under a process named `claude`), since the window of
 * an older client's transcript can differ only then.
 *
 * Builds nothing: `npm run bench:truth` builds first. Run:
 *   bun bench/summary-truth.ts [--binary PATH] [--corpus DIR] [--json] [--out FILE]
 * (`--out` also writes the JSON report to FILE).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative as rel } from "node:path";
import { CTX, sandbox } from "./lib.ts";
import { FIELDS, type Label, mean, readSummary, type Scores, score } from "./truth-score.ts";

/** How finalize was started. */
type Mode = "command" | "hook";

/** The result for one transcript. */
interface Row {
  name: string;
  scores: Record<Mode, Scores | null>;
  errors: string[];
}

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const binary = opt("--binary") ?? CTX;
const corpus = opt("--corpus") ?? join(import.meta.dir, "corpus");
const asJson = args.includes("--json");

if (!existsSync(binary)) {
  console.error(`summary-truth: no binary at ${binary} (npm run build, or --binary PATH)`);
  process.exit(2);
}

const rows: Row[] = labels(corpus).map((labelPath) => {
  const label = JSON.parse(readFileSync(labelPath, "utf8")) as Label;
  const transcript = join(dirname(labelPath), label.transcript);
  const row: Row = { name: rel(corpus, transcript), scores: { command: null, hook: null }, errors: [] };
  for (const mode of ["command", "hook"] as Mode[]) {
    const out = finalize(transcript, mode);
    if ("error" in out) row.errors.push(`${mode}: ${out.error}`);
    else row.scores[mode] = score(readSummary(out.md, out.twin), label);
  }
  return row;
});

if (asJson) console.log(JSON.stringify(report(rows), null, 2));
else console.log(table(rows));
const out = opt("--out");
if (out) writeFileSync(out, `${JSON.stringify(report(rows), null, 2)}\n`);

/** The label files under `dir`, sorted. */
function labels(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...labels(p));
    else if (e.name.endsWith(".label.json")) out.push(p);
  }
  return out.sort();
}

/** Runs `ctx finalize` on one transcript in a fresh sandbox and reads the summary and its twin. */
function finalize(transcript: string, mode: Mode): { md: string; twin: unknown } | { error: string } {
  const { root, env } = sandbox();
  try {
    const project = join(root, "project");
    mkdirSync(project);
    const git = (...a: string[]) =>
      Bun.spawnSync(["git", ...a], { cwd: project, env, stdout: "ignore", stderr: "pipe" });
    git("init", "-q");
    git(
      "-c",
      "user.name=bench",
      "-c",
      "user.email=bench@example.invalid",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "init",
    );
    const argv = [binary, "finalize", "--transcript", transcript, "--project", project];
    let cmd = argv;
    let runEnv: Record<string, string> = env;
    if (mode === "hook") {
      // A hook runs as claude → sh → ctx: a shell named `claude` stands for the client process.
      const bin = join(root, "bin");
      mkdirSync(bin);
      symlinkSync("/bin/sh", join(bin, "claude"));
      cmd = [join(bin, "claude"), "-c", '"$@"; exit $?', "claude", ...argv];
      runEnv = { ...env, CLAUDECODE: "1", CLAUDE_PROJECT_DIR: project };
    }
    const r = Bun.spawnSync(cmd, { cwd: project, env: runEnv, stdout: "pipe", stderr: "pipe" });
    const path = r.stdout.toString().trim().split("\n").pop() ?? "";
    if (r.exitCode !== 0 || !path.endsWith(".md") || !existsSync(path))
      return { error: `exit ${r.exitCode}: ${r.stderr.toString().trim().slice(0, 300) || path}` };
    const twinPath = path.replace(/\.md$/, ".json");
    let twin: unknown = null;
    try {
      twin = JSON.parse(readFileSync(twinPath, "utf8"));
    } catch {
      // no twin: the Markdown alone is read
    }
    return { md: readFileSync(path, "utf8"), twin };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The machine-readable report: per transcript, per mode, per field; and the means. */
function report(rs: Row[]) {
  const overall = (mode: Mode) =>
    Object.fromEntries(FIELDS.map((f) => [f, round(mean(rs.map((r) => r.scores[mode]?.[f] ?? 0)))]));
  return {
    binary,
    transcripts: rs.map((r) => ({ name: r.name, scores: r.scores, errors: r.errors })),
    overall: { command: overall("command"), hook: overall("hook") },
    total: round(mean(rs.flatMap((r) => columns(r)))),
  };
}

/** A row's scored columns: every field of the typed command, and the window under the hook. */
function columns(r: Row): number[] {
  return [...FIELDS.map((f) => r.scores.command?.[f] ?? 0), r.scores.hook?.window ?? 0];
}

/** The Markdown table: one row per transcript, one column per field, then the means. */
function table(rs: Row[]): string {
  const head = ["transcript", ...FIELDS, "window (hook)", "mean"];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const r of rs) {
    const c = columns(r);
    lines.push(`| ${r.name} | ${c.map(fmt).join(" | ")} | ${fmt(mean(c))} |`);
  }
  const per = head.slice(1, -1).map((_, i) => mean(rs.map((r) => columns(r)[i]!)));
  lines.push(`| **overall** | ${per.map(fmt).join(" | ")} | ${fmt(mean(rs.flatMap(columns)))} |`);
  const errs = rs.flatMap((r) => r.errors.map((e) => `- ${r.name}: ${e}`));
  return [`binary: ${binary}`, "", ...lines, ...(errs.length ? ["", "finalize failed:", ...errs] : [])].join("\n");
}

function fmt(x: number): string {
  return x.toFixed(2);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
