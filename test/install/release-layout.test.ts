/**
 * The README's curl line against a published release: a local HTTP server holds install.sh at its
 * raw.githubusercontent.com path and the files `npm run release` makes exactly where a GitHub release puts them
 * (`releases/download/v<version>/` and `releases/latest/download/`); install.sh keeps its default URL shape, with
 * only the host swapped through CTX_RELEASE_BASE.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import {
  type FileServer,
  hostDetectsOtherBuild,
  hostTarget,
  makeSandbox,
  REPO,
  type Sandbox,
  serveTree,
  sharedHostRelease,
  toolShim,
} from "./sandbox.ts";

const V = pkg.version;
const ARCHIVE = `ctx-${V}-${hostTarget()}.tar.gz`;
const README = readFileSync(join(REPO, "README.md"), "utf8");
const INSTALL_SH = readFileSync(join(REPO, "install.sh"), "utf8");
/** install.sh's default releases URL, e.g. https://github.com/ctx-dev/ctx/releases. */
const DEFAULT_BASE = /\$\{CTX_RELEASE_BASE:-([^}]+)\}/.exec(INSTALL_SH)?.[1] ?? "";
/** Every `curl … install.sh | sh …` line of the README. */
const CURL_LINES = README.split("\n").filter((l) => /^curl -fsSL https:\/\/\S+\/install\.sh \| sh\b/.test(l));
const PLAIN = CURL_LINES.find((l) => / \| sh$/.test(l)) ?? "";
const HOOKS = CURL_LINES.find((l) => l.endsWith("| sh -s -- --hooks")) ?? "";
/** The server path of `path` under the releases URL of `site`. */
const releases = (site: string, path: string): string => `/${site}/${DEFAULT_BASE.replace(/^https:\/\//, "")}/${path}`;

let box: Sandbox;
let server: FileServer;
let built: string[];

/** Lays out `files` of `from` as GitHub release v<V> (and as the latest, unless `latest` is false) in root/<site>. */
function publish(root: string, site: string, from: string, files: string[], latest = true): void {
  const base = join(root, site, DEFAULT_BASE.replace(/^https:\/\//, ""));
  const dirs = [join(base, "download", `v${V}`), ...(latest ? [join(base, "latest", "download")] : [])];
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    for (const f of files) copyFileSync(join(from, f), join(dir, f));
  }
}

beforeAll(() => {
  box = makeSandbox();
  const release = sharedHostRelease();
  built = readdirSync(release).sort();
  const www = join(box.root, "www");
  const raw = new URL(/https:\/\/\S+/.exec(PLAIN)?.[0] ?? "https://missing/install.sh");
  mkdirSync(join(www, raw.host, dirname(raw.pathname)), { recursive: true });
  copyFileSync(join(REPO, "install.sh"), join(www, raw.host, raw.pathname));
  publish(www, "good", release, built);
  publish(www, "missing", release, ["SHA256SUMS"]); // SHA256SUMS lists an archive the release lacks
  publish(www, "tampered", release, built);
  for (const dir of [`download/v${V}`, "latest/download"]) {
    const path = join(www, "tampered", DEFAULT_BASE.replace(/^https:\/\//, ""), dir, ARCHIVE);
    const bytes = readFileSync(path);
    const mid = bytes.length >> 1;
    bytes[mid] = bytes[mid]! ^ 0xff;
    writeFileSync(path, bytes);
  }
  // As on github.com: releases/latest/download/<file> answers with a redirect to the newest tag's file.
  publish(www, "redirecting", release, built, false);
  server = serveTree(www, (path) =>
    path.startsWith(releases("redirecting", "latest/download/"))
      ? path.replace("/latest/download/", `/download/v${V}/`)
      : undefined,
  );
}, 180_000);

afterAll(() => {
  server?.stop();
  box?.cleanup();
});

/** A fresh user (temp HOME, XDG, TMPDIR) whose installer fetches from `site` on the local server. */
function user(site: string, extra: Record<string, string> = {}): Sandbox & { bin: string } {
  const u = makeSandbox();
  u.env.CTX_RELEASE_BASE = `${server.url}/${site}/${DEFAULT_BASE.replace(/^https:\/\//, "")}`;
  // A build machine without AVX2 (or with musl) would be offered another build than the one served here.
  if (hostDetectsOtherBuild()) u.env.CTX_INSTALL_ARCH = hostTarget().replace("linux-", "");
  Object.assign(u.env, extra);
  return { ...u, bin: join(u.home, ".local", "bin", "ctx") };
}

/** Runs a README curl line with its https:// host replaced by the local server. */
async function runLine(line: string, u: Sandbox): Promise<{ code: number; stderr: string; requests: string[] }> {
  const before = server.requests.length;
  const local = line.replace(/https:\/\//, `${server.url}/`);
  const proc = Bun.spawn(["/bin/sh", "-c", local], { cwd: u.root, env: u.env, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr, requests: server.requests.slice(before) };
}

/** Nothing of ctx is left behind: no binary, no install dir, no profile line, no settings, no temp files. */
function expectNothingInstalled(u: Sandbox): void {
  expect(existsSync(join(u.home, ".local"))).toBe(false);
  expect(existsSync(join(u.home, ".profile"))).toBe(false);
  expect(existsSync(join(u.home, ".claude"))).toBe(false);
  expect(readdirSync(u.tmp)).toEqual([]);
}

test("the README's curl line, install.sh's default and package.json name the same repository", () => {
  expect(PLAIN).toBe("curl -fsSL https://raw.githubusercontent.com/ctx-dev/ctx/main/install.sh | sh");
  expect(HOOKS).not.toBe("");
  expect(DEFAULT_BASE).toBe("https://github.com/ctx-dev/ctx/releases");
  expect(pkg.repository.url).toBe("git+https://github.com/ctx-dev/ctx.git");
  expect(built).toEqual([ARCHIVE, "SHA256SUMS"].sort()); // what `npm run release` makes for this target
});

describe("the README's curl line against a published release", () => {
  test("`| sh` installs the latest release into ~/.local/bin and, with no terminal to ask on, says how to put it on PATH", async () => {
    const u = user("good");
    try {
      const r = await runLine(PLAIN, u);
      expect(r.stderr).toContain(`installed ctx ${V} to ${u.bin}`);
      expect(r.code).toBe(0);
      expect(r.requests).toEqual([
        "/raw.githubusercontent.com/ctx-dev/ctx/main/install.sh",
        releases("good", "latest/download/SHA256SUMS"),
        releases("good", `latest/download/${ARCHIVE}`),
      ]);
      expect(Bun.spawnSync([u.bin, "--version"]).stdout.toString()).toBe(`ctx ${V}\n`);
      // no terminal here: no profile is edited unasked, the line to add is printed
      expect(existsSync(join(u.home, ".profile"))).toBe(false);
      expect(r.stderr).toContain(`add it with: export PATH="${join(u.home, ".local/bin")}:$PATH"`);
      expect(readdirSync(u.tmp)).toEqual([]);
    } finally {
      u.cleanup();
    }
  }, 60_000);

  test("`| sh -s -- --hooks` also wires Claude Code; `--version V` downloads from releases/download/vV", async () => {
    const u = user("good");
    try {
      const r = await runLine(HOOKS, u);
      expect(r.code).toBe(0);
      const settings = JSON.parse(readFileSync(join(u.home, ".claude", "settings.json"), "utf8"));
      expect(settings.statusLine.command).toBe(`${u.bin} statusline`);
      const pinned = await runLine(`${HOOKS.replace("--hooks", `--version v${V}`)} --no-modify-path`, u);
      expect(pinned.code).toBe(0);
      expect(pinned.stderr).toContain(`ctx ${V} is already installed`);
      const fresh = user("good");
      try {
        const again = await runLine(HOOKS.replace("--hooks", `--version ${V} --no-modify-path`), fresh);
        expect(again.code).toBe(0);
        expect(again.requests.slice(1)).toEqual([
          releases("good", `download/v${V}/SHA256SUMS`),
          releases("good", `download/v${V}/${ARCHIVE}`),
        ]);
        expect(Bun.spawnSync([fresh.bin, "--version"]).stdout.toString()).toBe(`ctx ${V}\n`);
      } finally {
        fresh.cleanup();
      }
    } finally {
      u.cleanup();
    }
  }, 90_000);
});

test("releases/latest/ as GitHub serves it (a redirect to the tag), with curl and with wget alone", async () => {
  for (const tool of ["curl", "wget"]) {
    const u = user("redirecting");
    try {
      u.env.PATH = toolShim(join(u.root, "tools"), [tool]);
      const line = tool === "curl" ? PLAIN : PLAIN.replace("curl -fsSL", "wget -qO-");
      const r = await runLine(line, u);
      expect(r.stderr).toContain(`installed ctx ${V}`);
      expect(r.code).toBe(0);
      expect(r.requests.slice(1)).toEqual([
        releases("redirecting", "latest/download/SHA256SUMS"),
        releases("redirecting", `download/v${V}/SHA256SUMS`),
        releases("redirecting", `latest/download/${ARCHIVE}`),
        releases("redirecting", `download/v${V}/${ARCHIVE}`),
      ]);
    } finally {
      u.cleanup();
    }
  }
}, 90_000);

describe("a release install that cannot succeed says why and installs nothing", () => {
  const other = hostTarget() === "linux-arm64" ? "x64" : "arm64";
  test.each([
    ["an unknown operating system", { CTX_INSTALL_OS: "FreeBSD" }, "unsupported operating system 'FreeBSD'", 1],
    ["an unknown CPU", { CTX_INSTALL_ARCH: "riscv64" }, "unsupported CPU architecture 'riscv64'", 1],
    ["a platform the release has no build for", { CTX_INSTALL_ARCH: other }, `no build for linux-${other} at`, 2],
  ])("%s", async (_name, extra, message, requests) => {
    const u = user("good", extra);
    try {
      const r = await runLine(PLAIN, u);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`ctx-install: error: ${message}`);
      expect(r.requests).toHaveLength(requests); // install.sh, then SHA256SUMS at most
      expectNothingInstalled(u);
    } finally {
      u.cleanup();
    }
  });

  test("a missing archive (SHA256SUMS lists it, the release lacks it)", async () => {
    const u = user("missing");
    try {
      const r = await runLine(PLAIN, u);
      expect(r.code).toBe(1);
      const url = `${server.url}${releases("missing", `latest/download/${ARCHIVE}`)}`;
      expect(r.stderr).toContain(
        `download failed: ${url} (SHA256SUMS lists ${ARCHIVE} but the release does not hold it)`,
      );
      expectNothingInstalled(u);
    } finally {
      u.cleanup();
    }
  }, 30_000);

  test("a release that does not exist (--version 9.9.9)", async () => {
    const u = user("good");
    try {
      const r = await runLine(PLAIN.replace("| sh", "| sh -s -- --version 9.9.9"), u);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${releases("good", "download/v9.9.9/SHA256SUMS")} (no ctx release v9.9.9 there)`);
      expectNothingInstalled(u);
    } finally {
      u.cleanup();
    }
  }, 30_000);

  test("a checksum mismatch", async () => {
    const u = user("tampered");
    try {
      const r = await runLine(PLAIN, u);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`checksum mismatch for ${ARCHIVE}`);
      expect(r.stderr).toContain("refusing to install");
      expectNothingInstalled(u);
    } finally {
      u.cleanup();
    }
  }, 30_000);
});
