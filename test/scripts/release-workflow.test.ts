/**
 * release.yml's shell steps, run here with bash as the runner would run them: the release notes come from the
 * changelog, and the publish step hands `gh` every archive and SHA256SUMS. GitHub itself cannot be reached from a
 * test, so `gh` is a recording script on PATH (the one stand-in: it prints the arguments it was given).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { releaseNotes } from "../../scripts/changelog.ts";
import { hostTarget, REPO, sharedHostRelease } from "../install/sandbox.ts";

type Step = { name?: string; run?: string; env?: Record<string, string> };
const workflow = Bun.YAML.parse(readFileSync(join(REPO, ".github", "workflows", "release.yml"), "utf8")) as {
  jobs: Record<string, { steps: Step[]; needs?: string; permissions?: Record<string, string> }>;
};
const step = (name: string): Step => {
  const found = workflow.jobs.publish?.steps.find((s) => s.name === name);
  if (!found?.run) throw new Error(`release.yml has no publish step '${name}'`);
  return found;
};
const V = pkg.version;
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "ctx-release-wf-"));
  // A checkout whose dist/release is what `npm run release` made (for the host target only).
  mkdirSync(join(work, "checkout", "dist"), { recursive: true });
  cpSync(sharedHostRelease(), join(work, "checkout", "dist", "release"), { recursive: true });
  mkdirSync(join(work, "runner-temp"));
  mkdirSync(join(work, "bin"));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a step's script with bash -e (as GitHub's default shell does) in `cwd`. */
function runStep(s: Step, cwd: string, env: Record<string, string>): { code: number; stdout: string; stderr: string } {
  const r = Bun.spawnSync(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.run!], {
    cwd,
    env: { ...process.env, RUNNER_TEMP: join(work, "runner-temp"), ...env },
  });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** A `gh` that logs its argv (one line each call) and answers `release view` with `viewExit`. */
function recordingGh(viewExit: number): string {
  const log = join(work, "gh.log");
  writeFileSync(log, "");
  const gh = join(work, "bin", "gh");
  writeFileSync(gh, `#!/bin/sh\necho "$*" >> '${log}'\n[ "$1 $2" = "release view" ] && exit ${viewExit}\nexit 0\n`);
  chmodSync(gh, 0o755);
  return log;
}

test("publish runs after the tests, with write access to contents only there", () => {
  expect(workflow.jobs.test?.needs).toBe("verify");
  expect(workflow.jobs.publish?.needs).toBe("test");
  expect(workflow.jobs.publish?.permissions).toEqual({ contents: "write" });
});

test("the release notes step writes the version's changelog section", () => {
  const r = runStep(step("Release notes from CHANGELOG.md"), REPO, {
    GITHUB_REF_NAME: `v${V}`,
    PATH: `${join(REPO, "node_modules", ".bin")}:${process.env.PATH}`,
  });
  expect(r.code).toBe(0);
  const notes = readFileSync(join(work, "runner-temp", "notes.md"), "utf8");
  expect(notes.trim()).toBe(releaseNotes(readFileSync(join(REPO, "CHANGELOG.md"), "utf8"), V)!.body);
  const missing = runStep(step("Release notes from CHANGELOG.md"), REPO, { GITHUB_REF_NAME: "v9.9.9" });
  expect(missing.code).toBe(1);
});

test.each([
  [`v${V}`, 1, `release create v${V} --verify-tag --title ctx ${V} --notes-file`],
  [`v${V}-rc.1`, 1, `--prerelease`],
  [`v${V}`, 0, `release upload v${V} --clobber`],
])("publishing %s (release view exits %d) runs: gh %s … every archive and SHA256SUMS", (tag, viewExit, expected) => {
  const log = recordingGh(viewExit);
  const s = step("Publish the GitHub release");
  expect(s.env).toEqual({
    GH_TOKEN: "${{ github.token }}",
    GH_REPO: "${{ github.repository }}",
    TAG: "${{ github.ref_name }}",
  });
  const r = runStep(s, join(work, "checkout"), { TAG: tag, PATH: `${join(work, "bin")}:${process.env.PATH}` });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const calls = readFileSync(log, "utf8").trim().split("\n");
  expect(calls[0]).toBe(`release view ${tag}`);
  expect(calls[1]).toContain(expected);
  expect(calls[1]).toEndWith(` ctx-${V}-${hostTarget()}.tar.gz SHA256SUMS`);
  expect(calls).toHaveLength(2);
});
