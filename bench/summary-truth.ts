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
 *   bun bench/summary-truth.ts [--binary PATH] [--corpus DIR] [--json] [--out FILE] [--blind]
 * (`--out` also writes the JSON report to FILE; `--blind` prints the development half in
 * full but of the held-out half only its overall line and its false-failure count, so
 * the held-out sessions can be measured without being read).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative as rel } from "node:path";
import { CTX, sandbox } from "./lib.ts";
import {
  atCompaction,
  compactSummaryOf,
  FIELDS,
  falseFailures,
  findings,
  type Half,
  halfOf,
  type Label,
  mean,
  PEER_FIELDS,
  readPeer,
  readSummary,
  type Scores,
  type Split,
  score,
} from "./truth-score.ts";

/** How finalize was started. */
type Mode = "command" | "hook";

/** The result for one transcript. */
interface Row {
  name: string;
  half: Half | null;
  scores: Record<Mode, Scores | null>;
  /** Reported open errors that the label has as fixed or harmless (typed command). */
  falseFailures: number | null;
  /**
   * The client's own compaction summary (line `line`) and ctx's summary of the transcript
   * up to that compaction, both scored on the label's state at the compaction (its `peer`
   * block); `atStart` when the transcript begins with the compaction (ctx has nothing
   * before it to summarise: only the goal is compared, on the session's label).
   */
  peer: { line: number; atStart: boolean; ctx: Scores | null; scores: Scores } | null;
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
const blind = args.includes("--blind");

if (!existsSync(binary)) {
  console.error(`summary-truth: no binary at ${binary} (npm run build, or --binary PATH)`);
  process.exit(2);
}

const splitPath = join(corpus, "split.json");
const split: Split = existsSync(splitPath)
  ? (JSON.parse(readFileSync(splitPath, "utf8")) as Split)
  : { development: [], held_out: [] };

const rows: Row[] = labels(corpus).map((labelPath) => {
  const label = JSON.parse(readFileSync(labelPath, "utf8")) as Label;
  const transcript = join(dirname(labelPath), label.transcript);
  const name = rel(corpus, transcript);
  const row: Row = {
    name,
    half: halfOf(name, split),
    scores: { command: null, hook: null },
    falseFailures: null,
    peer: null,
    errors: [],
  };
  for (const mode of ["command", "hook"] as Mode[]) {
    const out = finalize(transcript, mode);
    if ("error" in out) row.errors.push(`${mode}: ${out.error}`);
    else {
      const reading = readSummary(out.md, out.twin);
      row.scores[mode] = score(reading, label);
      if (mode === "command") row.falseFailures = falseFailures(reading.errors, label);
    }
  }
  const text = readFileSync(transcript, "utf8");
  const compact = compactSummaryOf(text);
  if (compact && label.peer) {
    const at = atCompaction(label, label.peer);
    const cut = cutAt(transcript, text, label.peer.cut);
    const out = finalize(cut.path, "command");
    cut.cleanup();
    if ("error" in out) row.errors.push(`peer cut: ${out.error}`);
    row.peer = {
      line: compact.line,
      atStart: false,
      ctx: "error" in out ? null : score(readSummary(out.md, out.twin), at),
      scores: score(readPeer(compact.text), at),
    };
  } else if (compact && compact.line <= 10)
    row.peer = {
      line: compact.line,
      atStart: true,
      ctx: row.scores.command,
      scores: score(readPeer(compact.text), label),
    };
  return row;
});

if (asJson) console.log(JSON.stringify(report(rows), null, 2));
else console.log(blind ? blindText(rows) : text(rows));
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

/**
 * The transcript's lines before `cut` (the compaction boundary), written beside a link to
 * its subagent folder in a temp dir under the same file name.
 */
function cutAt(transcript: string, text: string, cut: number): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ctx-truth-cut-"));
  const name = basename(transcript);
  writeFileSync(
    join(dir, name),
    `${text
      .split("\n")
      .slice(0, cut - 1)
      .join("\n")}\n`,
  );
  const sub = transcript.replace(/\.jsonl$/, "");
  if (existsSync(sub)) symlinkSync(sub, join(dir, name.replace(/\.jsonl$/, "")));
  return { path: join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
  const dev = rs.filter((r) => r.half === "development");
  const held = rs.filter((r) => r.half === "held-out");
  return {
    binary,
    transcripts: rs.map((r) => ({
      name: r.name,
      half: r.half,
      scores: r.scores,
      false_failures: r.falseFailures,
      peer: r.peer,
      errors: r.errors,
    })),
    overall: { command: overall("command"), hook: overall("hook") },
    total: round(mean(rs.flatMap((r) => columns(r)))),
    halves: { development: means(dev), "held-out": means(held) },
    findings: findings(
      means(dev, (x) => x),
      means(held, (x) => x),
    ),
    held_out_false_failures: {
      sessions: held.length,
      with_false_failure: held.filter((r) => (r.falseFailures ?? 0) > 0).length,
    },
    peer: peerRows(rs),
  };
}

/** Per column (the fields, the window under the hook, the mean): the mean over some rows, rounded by `r`. */
function means(rs: Row[], r = round): Record<string, number> {
  const head = [...FIELDS, "window (hook)"];
  const out: Record<string, number> = {};
  head.forEach((h, i) => {
    out[h] = r(mean(rs.map((row) => columns(row)[i]!)));
  });
  out.mean = r(mean(rs.flatMap(columns)));
  return out;
}

/**
 * The transcripts with a compaction summary: ctx's score and the summary's on the fields
 * both can be scored on, at the compaction (a transcript that begins with one: the goal only).
 */
function peerRows(rs: Row[]) {
  return rs
    .filter((r) => r.peer)
    .map((r) => {
      const p = r.peer!;
      const fields = p.atStart ? (["goal"] as const) : PEER_FIELDS;
      return {
        name: r.name,
        half: r.half,
        line: p.line,
        at_start: p.atStart,
        ctx: Object.fromEntries(fields.map((f) => [f, p.ctx?.[f] ?? 0])) as Record<string, number>,
        peer: Object.fromEntries(fields.map((f) => [f, p.scores[f]])) as Record<string, number>,
      };
    });
}

/** A row's scored columns: every field of the typed command, and the window under the hook. */
function columns(r: Row): number[] {
  return [...FIELDS.map((f) => r.scores.command?.[f] ?? 0), r.scores.hook?.window ?? 0];
}

/** The whole text report: a table per half, the findings, the false failures, the peer comparison. */
function text(rs: Row[]): string {
  const dev = rs.filter((r) => r.half === "development");
  const held = rs.filter((r) => r.half === "held-out");
  const other = rs.filter((r) => r.half === null);
  const out = [`binary: ${binary}`, ""];
  out.push("## development", "", table(dev), "");
  out.push("## held-out", "", table(held), "");
  if (other.length) out.push("## not in split.json", "", table(other), "");
  const exact = (x: number) => x;
  const found = findings(means(dev, exact), means(held, exact));
  out.push("## findings (held-out field more than 0.05 below development)", "");
  if (!found.length) out.push("none");
  for (const f of found)
    out.push(`- FINDING ${f.field}: held-out ${fmt(f.heldOut)} vs development ${fmt(f.development)}`);
  out.push("", "## fixed or harmless failures listed as failing (held-out, typed command)", "");
  for (const r of held) out.push(`- ${r.name}: ${r.falseFailures ?? "n/a"}`);
  const bad = held.filter((r) => (r.falseFailures ?? 0) > 0).length;
  out.push(`${bad} of ${held.length} held-out sessions (done when: at most 1 in 10)`);
  const devBad = dev.filter((r) => (r.falseFailures ?? 0) > 0);
  out.push(
    `development, to tune on: ${devBad.length} of ${dev.length} sessions (${devBad.map((r) => `${r.name}: ${r.falseFailures}`).join(", ") || "none"})`,
    "",
  );
  const peers = peerRows(rs);
  out.push("## peer: the client's own compaction summary beside ctx's, at the same compaction", "");
  if (!peers.length) out.push("no transcript holds a compaction summary");
  else {
    const head = ["transcript", "half", ...PEER_FIELDS.flatMap((f) => [`${f} ctx`, `${f} peer`])];
    out.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
    const cell = (v: number | undefined) => (v === undefined ? "-" : fmt(v));
    for (const p of peers)
      out.push(
        `| ${p.name} (L${p.line}${p.at_start ? ", at the start" : ""}) | ${p.half ?? "-"} | ${PEER_FIELDS.map((f) => `${cell(p.ctx[f])} | ${cell(p.peer[f])}`).join(" | ")} |`,
      );
    const avg = (k: "ctx" | "peer", f: string) => {
      const xs = peers.filter((p) => f in p[k]).map((p) => p[k][f]!);
      return xs.length ? fmt(mean(xs)) : "-";
    };
    out.push(`| **mean** | | ${PEER_FIELDS.map((f) => `${avg("ctx", f)} | ${avg("peer", f)}`).join(" | ")} |`);
  }
  return out.join("\n");
}

/**
 * The report without the held-out half's sessions: the development table, its false
 * failures and its peer rows in full; of the held-out half only the overall line and the
 * number of sessions with a false failure; the peer comparison as means over all rows.
 */
function blindText(rs: Row[]): string {
  const dev = rs.filter((r) => r.half === "development");
  const held = rs.filter((r) => r.half === "held-out");
  const out = [`binary: ${binary}`, "", "## development", "", table(dev), ""];
  const devBad = dev.filter((r) => (r.falseFailures ?? 0) > 0);
  out.push(
    `development false failures: ${devBad.length} of ${dev.length} sessions (${devBad.map((r) => `${r.name}: ${r.falseFailures}`).join(", ") || "none"})`,
    "",
  );
  const head = [...FIELDS, "window (hook)", "mean"];
  const row = (m: Record<string, number>) => `| ${head.map((h) => fmt(m[h] ?? 0)).join(" | ")} |`;
  out.push(
    "## halves (overall only)",
    "",
    `| half | ${head.join(" | ")} |`,
    `|---|${head.map(() => "---").join("|")}|`,
  );
  out.push(`| development ${row(means(dev, (x) => x))}`, `| held-out ${row(means(held, (x) => x))}`, "");
  const broken = held.filter((r) => r.errors.length).length;
  if (broken) out.push(`held-out: finalize failed on ${broken} sessions`, "");
  const bad = held.filter((r) => (r.falseFailures ?? 0) > 0).length;
  out.push(`held-out sessions with a fixed or harmless failure listed as failing: ${bad} of ${held.length}`, "");
  const all = peerRows(rs);
  const avg = (k: "ctx" | "peer", f: string) => {
    const xs = all.filter((p) => f in p[k]).map((p) => p[k][f]!);
    return xs.length ? fmt(mean(xs)) : "-";
  };
  out.push(
    `peer means over all ${all.length} compactions (ctx / client): ${PEER_FIELDS.map((f) => `${f} ${avg("ctx", f)} / ${avg("peer", f)}`).join(", ")}`,
    "",
  );
  const peers = all.filter((p) => p.half === "development");
  out.push("## peer (development rows only)", "");
  for (const p of peers)
    out.push(
      `- ${p.name} L${p.line}: ${Object.keys(p.peer)
        .map((f) => `${f} ${fmt(p.ctx[f] ?? 0)}/${fmt(p.peer[f] ?? 0)}`)
        .join(", ")}`,
    );
  return out.join("\n");
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
  return [...lines, ...(errs.length ? ["", "finalize failed:", ...errs] : [])].join("\n");
}

function fmt(x: number): string {
  return x.toFixed(2);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
