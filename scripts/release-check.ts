/**
 * Checks a release directory before it is published: `bun scripts/release-check.ts [DIR] [--targets a,b]`
 * (default dist/release, every required target). Exits 1 with one line per problem.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { archiveName, RELEASE_TARGETS, type ReleaseTarget } from "../build.ts";
import pkg from "../package.json" with { type: "json" };

/** The release target name of the machine this runs on (`linux-x64`, `darwin-arm64`, …). */
export function hostTargetName(): string {
  return `${process.platform}-${process.arch}`;
}

/**
 * The problems of the release in `dir` for `version`: a required archive missing, a file that SHA256SUMS does not
 * list or lists with another hash, an archive named for another version, and a host binary whose `--version` is not
 * `ctx <version>`. Empty when the directory is fit to publish.
 */
export function checkRelease(dir: string, version: string, targets: readonly ReleaseTarget[]): string[] {
  const problems: string[] = [];
  const files = readdirSync(dir).filter((f) => !f.startsWith("."));
  const archives = files.filter((f) => /^ctx-.*\.(tar\.gz|zip)$/.test(f));
  for (const t of targets)
    if (!t.optional && !archives.includes(archiveName(version, t))) problems.push(`missing ${archiveName(version, t)}`);
  for (const a of archives) if (!a.startsWith(`ctx-${version}-`)) problems.push(`${a} is not named for ${version}`);
  if (!files.includes("SHA256SUMS")) return [...problems, "missing SHA256SUMS"];
  const listed = new Map<string, string>();
  for (const line of readFileSync(join(dir, "SHA256SUMS"), "utf8").split("\n").filter(Boolean)) {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
    if (m) listed.set(m[2]!, m[1]!);
    else problems.push(`SHA256SUMS: malformed line '${line}'`);
  }
  for (const a of archives) if (!listed.has(a)) problems.push(`SHA256SUMS does not list ${a}`);
  for (const [name, hash] of listed) {
    if (!archives.includes(name)) problems.push(`SHA256SUMS lists ${name}, which is not there`);
    else if (sha256(join(dir, name)) !== hash) problems.push(`checksum mismatch for ${name}`);
  }
  const host = targets.find((t) => t.name === hostTargetName() && !t.windows);
  if (host && archives.includes(archiveName(version, host))) {
    const said = hostVersion(join(dir, archiveName(version, host)));
    if (said !== `ctx ${version}`) problems.push(`${archiveName(version, host)}: ctx --version says '${said}'`);
  }
  return problems;
}

// --- internal ---

function sha256(path: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
}

/** Unpacks the archive into a temp dir and returns what its `ctx --version` prints. */
function hostVersion(archive: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ctx-release-check-"));
  try {
    const tar = Bun.spawnSync(["tar", "-xzf", archive, "-C", dir], { stderr: "pipe" });
    if (tar.exitCode !== 0) return `(tar failed: ${tar.stderr.toString().trim()})`;
    const run = Bun.spawnSync([join(dir, "ctx"), "--version"], { stdout: "pipe", stderr: "pipe" });
    return run.stdout.toString().trim() || `(exit ${run.exitCode}: ${run.stderr.toString().trim()})`;
  } catch (err) {
    return `(${(err as Error).message})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    options: { targets: { type: "string" } },
    allowPositionals: true,
  });
  const dir = positionals[0] ?? "dist/release";
  const names = values.targets?.split(",");
  const targets = names ? RELEASE_TARGETS.filter((t) => names.includes(t.name)) : RELEASE_TARGETS;
  const problems = checkRelease(dir, pkg.version, targets);
  for (const p of problems) console.error(`release-check: ${p}`);
  if (problems.length > 0) process.exit(1);
  console.error(`release-check: ${dir} holds ctx ${pkg.version} for ${targets.length} target(s), SHA256SUMS verified`);
}
