/**
 * Helpers for the install tests: a temp HOME/XDG/TMPDIR sandbox, a release
 * directory built by build.ts for the host target, and a static file server
 * on 127.0.0.1 that logs every request.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The repository root. */
export const REPO = resolve(import.meta.dir, "..", "..");
/** The pinned bun. */
export const BUN = join(REPO, "node_modules", ".bin", "bun");

/** A fresh temp root with home, xdg dirs and tmp, and an environment pointing into it. */
export interface Sandbox {
  root: string;
  home: string;
  tmp: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** Creates a sandbox; PATH keeps only system directories. */
export function makeSandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ctx-install-")));
  const d = (p: string): string => {
    mkdirSync(join(root, p), { recursive: true });
    return join(root, p);
  };
  const home = d("home");
  const tmp = d("tmp");
  const env: Record<string, string> = {
    HOME: home,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: d("xdg/config"),
    XDG_STATE_HOME: d("xdg/state"),
    XDG_CACHE_HOME: d("xdg/cache"),
    XDG_DATA_HOME: d("xdg/data"),
    PATH: "/usr/local/bin:/usr/bin:/bin",
    SHELL: "/bin/sh",
    LANG: "C",
  };
  return { root, home, tmp, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The release target name of this machine (what install.sh would pick with AVX2). */
export function hostTarget(): string {
  return `linux-${process.arch === "arm64" ? "arm64" : "x64"}`;
}

/** Builds the release archive of the host target plus SHA256SUMS into `outDir` (as `npm run release` does for all). */
export function buildHostRelease(outDir: string): void {
  const proc = Bun.spawnSync([BUN, "build.ts", "--release", "--targets", hostTarget(), "--out-dir", outDir], {
    cwd: REPO,
    stderr: "pipe",
  });
  if (proc.exitCode !== 0) throw new Error(`release build failed: ${proc.stderr.toString()}`);
}

let shared: string | undefined;

/**
 * The host release (archive + SHA256SUMS), built once per `bun test` process and shared by the test files that
 * only read it (a build takes 10-20 s); removed when the process exits.
 */
export function sharedHostRelease(): string {
  if (shared) return shared;
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ctx-release-")));
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  buildHostRelease(join(root, "release"));
  shared = join(root, "release");
  return shared;
}

/** True when install.sh's own detection would pick another build than hostTarget() (a CPU without AVX2, musl). */
export function hostDetectsOtherBuild(): boolean {
  if (process.arch !== "x64") return false;
  const read = (p: string): string => {
    try {
      return readFileSync(p, "utf8");
    } catch {
      return "";
    }
  };
  const musl = Bun.spawnSync(["sh", "-c", "ls /lib/ld-musl-* >/dev/null 2>&1"]).exitCode === 0;
  return musl || !/\bavx2\b/.test(read("/proc/cpuinfo"));
}

/** A static server over several directories: `/<mount>/<file>`. */
export interface FileServer {
  url: string;
  /** Paths requested so far. */
  requests: string[];
  stop(): void;
}

/** Serves `mounts` (name → directory) on 127.0.0.1, on a free port. */
export function serveDirs(mounts: Record<string, string>): FileServer {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(path);
      const [, mount, file] = path.split("/");
      const dir = mount ? mounts[mount] : undefined;
      if (!dir || !file || file.includes("..")) return new Response("not found", { status: 404 });
      const f = Bun.file(join(dir, file));
      return (await f.exists()) ? new Response(f) : new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

/**
 * Serves the files under `root` at their paths (`/a/b/file` → `root/a/b/file`) on 127.0.0.1, on a free port.
 * `redirect(path)` may name another path to answer with a 302 instead (as GitHub does for `releases/latest/`).
 */
export function serveTree(root: string, redirect: (path: string) => string | undefined = () => undefined): FileServer {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const to = redirect(path);
      if (to) return new Response(null, { status: 302, headers: { Location: to } });
      const file = join(root, path);
      const isFile = !path.split("/").includes("..") && statSync(file, { throwIfNoEntry: false })?.isFile();
      return isFile ? new Response(Bun.file(file)) : new Response("Not Found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

/** A directory of symlinks to just the tools install.sh needs (to hide curl and/or wget). */
export function toolShim(dir: string, extra: string[]): string {
  mkdirSync(dir, { recursive: true });
  const tools = [
    "sh",
    "uname",
    "mktemp",
    "rm",
    "ls",
    "grep",
    "sed",
    "tail",
    "awk",
    "cut",
    "sha256sum",
    "tar",
    "gzip",
    "mkdir",
    "cp",
    "chmod",
    "mv",
    "dirname",
    "cat",
  ];
  for (const t of [...tools, ...extra]) {
    const real = Bun.which(t, { PATH: "/usr/local/bin:/usr/bin:/bin" });
    if (real) symlinkSync(real, join(dir, t));
  }
  return dir;
}

/** Writes an executable sh script. */
export function writeScript(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** Runs `sh install.sh args` with `env` in `cwd` (async: the file server lives in this process). */
export async function runInstallSh(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(["/bin/sh", script, ...args], { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}
