import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import {
  type FileServer,
  hostTarget,
  makeSandbox,
  REPO,
  runInstallSh,
  type Sandbox,
  serveDirs,
  sharedHostRelease,
  toolShim,
  writeScript,
} from "./sandbox.ts";

const SCRIPT = join(REPO, "install.sh");
const ARCHIVE = `ctx-${pkg.version}-${hostTarget()}.tar.gz`;
const ARCH = hostTarget().replace("linux-", "");

let box: Sandbox; // holds the release dirs and the server's files
let server: FileServer;
let goodDir: string;
let badDir: string;

beforeAll(() => {
  box = makeSandbox();
  goodDir = sharedHostRelease();
  // Tampered: same SHA256SUMS, one byte of the archive flipped.
  badDir = join(box.root, "tampered");
  mkdirSync(badDir);
  copyFileSync(join(goodDir, "SHA256SUMS"), join(badDir, "SHA256SUMS"));
  const bytes = readFileSync(join(goodDir, ARCHIVE));
  const mid = bytes.length >> 1;
  bytes[mid] = bytes[mid]! ^ 0xff;
  writeFileSync(join(badDir, ARCHIVE), bytes);
  server = serveDirs({ good: goodDir, bad: badDir });
}, 120_000);

afterAll(() => {
  server?.stop();
  box?.cleanup();
});

/** A fresh user: temp HOME etc., the release URL, host arch pinned (the build machine may lack AVX2). */
function user(mount = "good", extra: Record<string, string> = {}): Sandbox & { bin: string } {
  const u = makeSandbox();
  Object.assign(u.env, { CTX_RELEASE_URL: `${server.url}/${mount}`, CTX_INSTALL_ARCH: ARCH, ...extra });
  return { ...u, bin: join(u.home, ".local", "bin", "ctx") };
}

function version(bin: string): string {
  return Bun.spawnSync([bin, "--version"]).stdout.toString().trim();
}

describe("install.sh from a release URL", () => {
  test("fresh install: verifies, installs to ~/.local/bin, adds it to PATH in the profile", async () => {
    const u = user();
    try {
      const before = server.requests.length;
      const r = await runInstallSh(SCRIPT, ["--modify-path"], u.env, u.root);
      expect(r.stderr).toContain(`installed ctx ${pkg.version}`);
      expect(r.code).toBe(0);
      expect(version(u.bin)).toBe(`ctx ${pkg.version}`);
      expect(statSync(u.bin).mode & 0o777).toBe(0o755);
      expect(server.requests.slice(before)).toEqual(["/good/SHA256SUMS", `/good/${ARCHIVE}`]);
      expect(readFileSync(join(u.home, ".profile"), "utf8")).toContain(
        `export PATH="${join(u.home, ".local", "bin")}:$PATH"`,
      );
      expect(readdirSync(u.tmp)).toEqual([]); // temp files cleaned up
    } finally {
      u.cleanup();
    }
  }, 60_000);

  test("re-install of the same version is skipped without downloading the archive", async () => {
    const u = user();
    try {
      expect((await runInstallSh(SCRIPT, ["--no-modify-path"], u.env, u.root)).code).toBe(0);
      const mtime = statSync(u.bin).mtimeMs;
      const before = server.requests.length;
      const r = await runInstallSh(SCRIPT, ["--no-modify-path"], u.env, u.root);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`ctx ${pkg.version} is already installed`);
      expect(server.requests.slice(before)).toEqual(["/good/SHA256SUMS"]);
      expect(statSync(u.bin).mtimeMs).toBe(mtime);
      expect(existsSync(join(u.home, ".profile"))).toBe(false); // --no-modify-path
      const pinned = await runInstallSh(SCRIPT, ["--version", pkg.version, "--no-modify-path"], u.env, u.root);
      expect(pinned.code).toBe(0);
      expect(server.requests.length).toBe(before + 1); // --version V: not even SHA256SUMS
    } finally {
      u.cleanup();
    }
  }, 60_000);

  test("without a terminal to ask on, no shell profile is edited: the line to add is printed", async () => {
    const u = user();
    try {
      writeFileSync(join(u.home, ".bashrc"), "# mine\n");
      const r = await runInstallSh(SCRIPT, [], { ...u.env, SHELL: "/bin/bash" }, u.root);
      expect(r.code).toBe(0);
      expect(readFileSync(join(u.home, ".bashrc"), "utf8")).toBe("# mine\n");
      expect(existsSync(join(u.home, ".profile"))).toBe(false);
      expect(r.stderr).toContain(
        `is not on PATH; add it with: export PATH="${join(u.home, ".local", "bin")}:$PATH" (or rerun with --modify-path)`,
      );
    } finally {
      u.cleanup();
    }
  }, 60_000);

  test("a tampered archive is refused and nothing is installed", async () => {
    const u = user("bad");
    try {
      const r = await runInstallSh(SCRIPT, [], u.env, u.root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`checksum mismatch for ${ARCHIVE}`);
      expect(r.stderr).toContain("refusing to install");
      expect(existsSync(join(u.home, ".local"))).toBe(false);
      expect(existsSync(join(u.home, ".profile"))).toBe(false);
      expect(readdirSync(u.tmp)).toEqual([]);
    } finally {
      u.cleanup();
    }
  }, 60_000);

  test("a host that does not resolve (offline, DNS) says it cannot reach it, not that there is no release", async () => {
    const u = user("good", { CTX_RELEASE_URL: "http://ctx-release.invalid/download" });
    try {
      const r = await runInstallSh(SCRIPT, [], u.env, u.root);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot reach ctx-release\.invalid/);
      expect(r.stderr).toContain("install offline with --binary FILE or --from-source");
      expect(r.stderr).not.toContain("no ctx release");
    } finally {
      u.cleanup();
    }
  }, 30_000);

  test("an unknown version is a clear error", async () => {
    const u = user();
    try {
      const r = await runInstallSh(SCRIPT, ["--version", "9.9.9"], u.env, u.root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no version 9.9.9 build for ${hostTarget()}`);
      expect(existsSync(u.bin)).toBe(false);
    } finally {
      u.cleanup();
    }
  }, 30_000);

  test("--hooks wires Claude Code with the installed binary's absolute path", async () => {
    const u = user();
    try {
      const r = await runInstallSh(SCRIPT, ["--hooks", "--no-modify-path"], u.env, u.root);
      expect(r.code).toBe(0);
      const settings = JSON.parse(readFileSync(join(u.home, ".claude", "settings.json"), "utf8"));
      expect(settings.statusLine.command).toBe(`${u.bin} statusline`);
      expect(settings.hooks.PostToolUse[0].hooks.map((h: { command: string }) => h.command)).toEqual([
        `${u.bin} monitor`,
        `${u.bin} track`,
      ]);
    } finally {
      u.cleanup();
    }
  }, 60_000);
});

describe("install.sh platform detection and tools", () => {
  test.each([
    ["CTX_INSTALL_ARCH=mips", { CTX_INSTALL_ARCH: "mips" }, "unsupported CPU architecture 'mips'"],
    ["CTX_INSTALL_OS=SunOS", { CTX_INSTALL_OS: "SunOS" }, "unsupported operating system 'SunOS'"],
  ])("%s is a clear error", async (_name, extra, message) => {
    const u = user("good", extra);
    try {
      const r = await runInstallSh(SCRIPT, [], u.env, u.root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(existsSync(u.bin)).toBe(false);
    } finally {
      u.cleanup();
    }
  });

  test.each([
    ["riscv64", "unsupported CPU architecture 'riscv64'"],
    ["aarch64", "no build for linux-arm64"], // detected, but this release dir holds only the host build
  ])("uname -m %s (PATH shim) gives a clear error", async (machine, message) => {
    const u = user();
    try {
      delete u.env.CTX_INSTALL_ARCH;
      const shim = join(u.root, "shim");
      mkdirSync(shim);
      writeScript(join(shim, "uname"), `case "$1" in -m) echo ${machine} ;; *) echo Linux ;; esac`);
      u.env.PATH = `${shim}:${u.env.PATH}`;
      const r = await runInstallSh(SCRIPT, [], u.env, u.root);
      if (machine === "aarch64" && hostTarget() === "linux-arm64") return; // would succeed on an arm64 host
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(existsSync(u.bin)).toBe(false);
    } finally {
      u.cleanup();
    }
  });

  test("works with wget alone, and fails clearly with neither curl nor wget", async () => {
    const u = user();
    try {
      u.env.PATH = toolShim(join(u.root, "wget-only"), ["wget"]);
      const ok = await runInstallSh(SCRIPT, ["--no-modify-path"], u.env, u.root);
      expect(ok.stderr).toContain(`installed ctx ${pkg.version}`);
      expect(ok.code).toBe(0);
      const v = user();
      v.env.PATH = toolShim(join(v.root, "none"), []);
      const r = await runInstallSh(SCRIPT, [], v.env, v.root);
      v.cleanup();
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("neither curl nor wget is installed");
    } finally {
      u.cleanup();
    }
  }, 60_000);
});

describe("install.sh --binary", () => {
  test("installs a local binary into CTX_INSTALL_DIR, replacing the old one", async () => {
    const u = user();
    try {
      const extracted = join(u.root, "x");
      mkdirSync(extracted);
      Bun.spawnSync(["tar", "-xzf", join(goodDir, ARCHIVE), "-C", extracted]);
      const dir = join(u.root, "opt bin");
      mkdirSync(dir);
      writeScript(join(dir, "ctx"), "echo old");
      u.env.CTX_INSTALL_DIR = dir;
      const before = server.requests.length;
      const r = await runInstallSh(SCRIPT, ["--binary", join(extracted, "ctx"), "--no-modify-path"], u.env, u.root);
      expect(r.code).toBe(0);
      expect(version(join(dir, "ctx"))).toBe(`ctx ${pkg.version}`);
      expect(readdirSync(dir)).toEqual(["ctx"]); // no temp file left behind
      expect(server.requests.length).toBe(before); // nothing downloaded
    } finally {
      u.cleanup();
    }
  }, 30_000);

  test("refuses a file that does not run as ctx, or does not exist", async () => {
    const u = user();
    try {
      writeScript(join(u.root, "fake"), "exit 3");
      const r = await runInstallSh(SCRIPT, ["--binary", join(u.root, "fake")], u.env, u.root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("is not a ctx binary");
      // Runs and exits 0, but is not ctx: refused too.
      writeScript(join(u.root, "impostor"), "echo hacked");
      const impostor = await runInstallSh(SCRIPT, ["--binary", join(u.root, "impostor")], u.env, u.root);
      expect(impostor.code).toBe(1);
      const missing = await runInstallSh(SCRIPT, ["--binary", join(u.root, "nope")], u.env, u.root);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("no such file");
      expect(existsSync(u.bin)).toBe(false);
    } finally {
      u.cleanup();
    }
  });

  test("a bare file name means the file here, not a ctx on PATH", async () => {
    const u = user();
    try {
      const extracted = join(u.root, "x");
      mkdirSync(extracted);
      Bun.spawnSync(["tar", "-xzf", join(goodDir, ARCHIVE), "-C", extracted]);
      const r = await runInstallSh(SCRIPT, ["--binary", "ctx", "--no-modify-path"], u.env, extracted);
      expect(r.code).toBe(0);
      expect(version(u.bin)).toBe(`ctx ${pkg.version}`);
    } finally {
      u.cleanup();
    }
  }, 30_000);
});

test("install.sh --help works when piped into sh (curl … | sh -s -- --help)", async () => {
  const proc = Bun.spawn(["/bin/sh", "-s", "--", "--help"], {
    stdin: Bun.file(SCRIPT),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(out).toContain("Usage: install.sh");
  expect(out).toContain("--no-modify-path");
});
