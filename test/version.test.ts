/**
 * One version everywhere: package.json's `version` is the single source, and `ctx --version`, the release archives
 * (their names and the binary inside), the changelog's newest entry and the release workflow's tag check agree.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveName, RELEASE_TARGETS, sourceVersion } from "../build.ts";
import pkg from "../package.json" with { type: "json" };
import { latestRelease, parseChangelog, releaseNotes } from "../scripts/changelog.ts";
import { checkRelease } from "../scripts/release-check.ts";
import { runCtx } from "./helpers/ctx.ts";
import { hostTarget, REPO, sharedHostRelease } from "./install/sandbox.ts";

const V = pkg.version;
const CHANGELOG = readFileSync(join(REPO, "CHANGELOG.md"), "utf8");
const host = RELEASE_TARGETS.filter((t) => t.name === hostTarget());
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "ctx-version-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("package.json's version is a semantic version", () => {
  expect(V).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
});

test("a source build's ctx --version is package.json's version plus the commit it was built from", async () => {
  const r = await runCtx(["--version"], { env: { PATH: "/usr/bin:/bin", HOME: scratch, TMPDIR: scratch } });
  expect(r.code).toBe(0);
  const m = /^ctx (\S+)\+([0-9a-f]{12})(\.dirty)?\n$/.exec(r.stdout);
  expect(m?.[1]).toBe(V);
  const head = Bun.spawnSync(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"]).stdout.toString().trim();
  expect(m?.[2]).toBe(head);
  expect(sourceVersion(REPO)).toMatch(new RegExp(`^${V.replaceAll(".", "\\.")}\\+${head}(\\.dirty)?$`));
});

test("outside a git checkout of its own, a source build says +source", () => {
  expect(sourceVersion(scratch)).toBe(`${V}+source`);
});

test("no source file carries a version of its own", () => {
  const glob = new Bun.Glob("src/**/*.ts");
  for (const file of glob.scanSync(REPO)) {
    const text = readFileSync(join(REPO, file), "utf8");
    expect({ file, has: text.includes(`"${V}"`) }).toEqual({ file, has: false });
  }
  expect(readFileSync(join(REPO, "install.sh"), "utf8")).not.toContain(V);
});

describe("CHANGELOG.md", () => {
  test("its newest released entry is package.json's version, dated, below an Unreleased section", () => {
    const sections = parseChangelog(CHANGELOG);
    expect(sections[0]?.name).toBe("Unreleased");
    expect(latestRelease(CHANGELOG)?.name).toBe(V);
    expect(latestRelease(CHANGELOG)?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(releaseNotes(CHANGELOG, `v${V}`)?.body).toContain("### Added");
    expect(CHANGELOG).toContain(`[${V}]: https://github.com/ctx-dev/ctx/releases/tag/v${V}`);
    expect(CHANGELOG).toContain(`[Unreleased]: https://github.com/ctx-dev/ctx/compare/v${V}...HEAD`);
  });

  test("versions are listed newest first, each once", () => {
    const versions = parseChangelog(CHANGELOG)
      .map((s) => s.name)
      .filter((n) => n !== "Unreleased");
    const sorted = [...versions].sort((a, b) => Bun.semver.order(b, a));
    expect(versions).toEqual(sorted);
    expect(new Set(versions).size).toBe(versions.length);
  });

  test("the parser reads Keep a Changelog headings and stops at the link references", () => {
    const text = "# C\n\n## [Unreleased]\n- a\n\n## [1.2.0] - 2026-01-02\n### Fixed\n- b\n\n[1.2.0]: https://x\n";
    expect(parseChangelog(text)).toEqual([
      { name: "Unreleased", date: "", body: "- a" },
      { name: "1.2.0", date: "2026-01-02", body: "### Fixed\n- b" },
    ]);
    expect(releaseNotes(text, "v1.2.0")?.body).toBe("### Fixed\n- b");
    expect(releaseNotes(text, "1.3.0")).toBeUndefined();
  });
});

describe("release archives", () => {
  test("every target's archive is named for package.json's version", () => {
    for (const t of RELEASE_TARGETS) expect(archiveName(V, t)).toStartWith(`ctx-${V}-${t.name}.`);
  });

  test("the built release holds ctx-<version>-<target>.tar.gz whose ctx says 'ctx <version>'", () => {
    const dir = sharedHostRelease();
    expect(readdirSync(dir).sort()).toEqual(["SHA256SUMS", `ctx-${V}-${hostTarget()}.tar.gz`]);
    expect(checkRelease(dir, V, host)).toEqual([]);
    // The same files checked against another version: every name and the binary disagree.
    const problems = checkRelease(dir, "9.9.9", host);
    expect(problems).toContain(`missing ctx-9.9.9-${hostTarget()}.tar.gz`);
    expect(problems).toContain(`ctx-${V}-${hostTarget()}.tar.gz is not named for 9.9.9`);
  }, 180_000);

  test("release-check catches a tampered archive and an archive SHA256SUMS does not list", () => {
    const copy = join(scratch, "release");
    cpSync(sharedHostRelease(), copy, { recursive: true });
    const archive = join(copy, `ctx-${V}-${hostTarget()}.tar.gz`);
    const bytes = readFileSync(archive);
    bytes[100] = bytes[100]! ^ 0xff;
    writeFileSync(archive, bytes);
    writeFileSync(join(copy, `ctx-${V}-linux-riscv64.tar.gz`), "x");
    expect(checkRelease(copy, V, host)).toEqual([
      `SHA256SUMS does not list ctx-${V}-linux-riscv64.tar.gz`,
      `checksum mismatch for ctx-${V}-${hostTarget()}.tar.gz`,
      expect.stringContaining(`ctx-${V}-${hostTarget()}.tar.gz: ctx --version says`),
    ]);
  }, 60_000);
});

describe("release.yml", () => {
  const workflow = Bun.YAML.parse(readFileSync(join(REPO, ".github", "workflows", "release.yml"), "utf8")) as {
    on: { push: { tags: string[] } };
    jobs: Record<string, { steps: { name?: string; run?: string }[] }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const tagCheck = steps.find((s) => s.name === "The tag is v + package.json's version")?.run ?? "exit 99";

  test("runs on v* tags, builds with npm run release and uploads every archive and SHA256SUMS", () => {
    expect(workflow.on.push.tags).toEqual(["v*"]);
    const runs = steps.map((s) => s.run ?? "").join("\n");
    expect(runs).toContain("npm run release");
    expect(runs).toMatch(/gh release create "\$TAG"[^\n]*\\\n[^\n]*ctx-\* SHA256SUMS/);
  });

  test.each([
    [`v${V}`, 0],
    [`v${V}.1`, 1],
    ["v0.0.0", 1],
    [V, 1],
  ])("its tag check accepts only v + package.json's version: %s exits %d", (tag, code) => {
    const r = Bun.spawnSync(["bash", "-e", "-c", tagCheck], { cwd: REPO, env: { ...process.env, TAG: tag } });
    expect(r.exitCode).toBe(code);
    if (code) expect(r.stdout.toString()).toContain(`::error::tag ${tag} does not match package.json's version ${V}`);
  });
});
