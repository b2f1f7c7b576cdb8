/**
 * Builds the single `ctx` executable: `bun build.ts` → dist/ctx.
 * `bun build.ts --release` builds every release target into dist/release/
 * (`--targets linux-x64,…` for a subset, `--out-dir DIR` elsewhere).
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pkg from "./package.json" with { type: "json" };

/**
 * What a build from this tree calls itself: package.json's version plus, as semver build metadata,
 * the git commit it was built from (`0.1.0+3f2a9c1d0b7e`, `.dirty` with uncommitted changes to
 * tracked files), or `+source` outside a git checkout of its own. Releases are the plain version.
 */
export function sourceVersion(dir = import.meta.dir): string {
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", "-C", dir, ...args], { stderr: "ignore" });
    return r.exitCode === 0 ? r.stdout.toString().trim() : null;
  };
  const top = git("rev-parse", "--show-toplevel");
  const head = top && resolve(top) === resolve(dir) ? git("rev-parse", "--short=12", "HEAD") : null;
  if (!head) return `${pkg.version}+source`;
  const dirty = git("status", "--porcelain", "--untracked-files=no");
  return `${pkg.version}+${head}${dirty ? ".dirty" : ""}`;
}

/** Compiles src/main.ts for `target` into `outfile`. Bytecode is tried first, then dropped if it fails. */
export async function compile(
  outfile: string,
  target?: Bun.Build.CompileTarget,
  version: string = pkg.version,
): Promise<void> {
  // The Claude Code plugin rides inside the binary, so `ctx install` writes it out (src/io/plugin/files.ts).
  const define = { CTX_VERSION: JSON.stringify(version), CTX_PLUGIN_FILES: JSON.stringify(await pluginFiles()) };
  for (const bytecode of [true, false]) {
    const result = await Bun.build({
      entrypoints: ["./src/main.ts"],
      // A hook runs in the user's project: its .env and bunfig.toml (which can preload code) are not ours to load.
      compile: { ...(target ? { target } : {}), outfile, autoloadDotenv: false, autoloadBunfig: false },
      minify: true,
      format: "esm",
      splitting: true,
      bytecode,
      sourcemap: "none",
      define,
    }).catch((err: unknown) => ({ success: false as const, logs: err instanceof AggregateError ? err.errors : [err] }));
    if (result.success) return;
    if (!bytecode) throw new Error(`build failed for ${target ?? "host"}: ${result.logs.map(String).join("\n")}`);
    console.error(`build: bytecode failed for ${target ?? "host"}, retrying without`);
  }
}

/** The repository's plugin/ files the binary carries (path → text), as src/core/plugin/claude-plugin.ts lists them. */
export async function pluginFiles(dir = join(import.meta.dir, "plugin")): Promise<Record<string, string>> {
  const { PLUGIN_PATHS } = await import("./src/core/plugin/claude-plugin.ts");
  const entries = await Promise.all(PLUGIN_PATHS.map(async (p) => [p, await Bun.file(join(dir, p)).text()] as const));
  return Object.fromEntries(entries);
}

/** One release target: Bun's compile target and the `<os>-<arch>` of its archive. */
export interface ReleaseTarget {
  /** `<os>-<arch>` in the archive name, e.g. `linux-x64-musl`. */
  name: string;
  /** Bun's `--target`; Bun fetches that runtime as the npm package `@oven/bun-<os>-<arch>`. */
  bun: Bun.Build.CompileTarget;
  /** Windows: `ctx.exe` in a .zip. */
  windows?: boolean;
  /** A failure only warns (the issue asks for Windows only if Bun can without extra downloads). */
  optional?: boolean;
}

/** Every target `npm run release` builds. */
export const RELEASE_TARGETS: ReleaseTarget[] = [
  { name: "linux-x64", bun: "bun-linux-x64" },
  { name: "linux-x64-baseline", bun: "bun-linux-x64-baseline" },
  { name: "linux-arm64", bun: "bun-linux-arm64" },
  { name: "linux-x64-musl", bun: "bun-linux-x64-musl" },
  { name: "darwin-x64", bun: "bun-darwin-x64" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64" },
  { name: "windows-x64", bun: "bun-windows-x64", windows: true, optional: true },
];

/** `ctx-<version>-<os>-<arch>.tar.gz` (`.zip` on Windows). */
export function archiveName(version: string, target: ReleaseTarget): string {
  return `ctx-${version}-${target.name}.${target.windows ? "zip" : "tar.gz"}`;
}

/**
 * Builds `targets` into `outDir` as archives holding the single binary, and
 * writes `SHA256SUMS` (sha256sum format) over them. Returns the archive names.
 */
export async function release(outDir: string, targets = RELEASE_TARGETS, version = pkg.version): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  for (const old of await readdir(outDir))
    if (/^ctx-.*\.(tar\.gz|zip)$|^SHA256SUMS$/.test(old)) await rm(join(outDir, old));
  const stage = await mkdtemp(join(outDir, ".stage-"));
  const built: string[] = [];
  try {
    for (const target of targets) {
      const name = await releaseOne(target, stage, outDir, version).catch((err: unknown) => {
        if (!target.optional) throw err;
        console.error(`release: skipped ${target.name}: ${(err as Error).message.split("\n")[0]}`);
        return undefined;
      });
      if (name) built.push(name);
    }
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  const sums = await Promise.all(built.map(async (n) => `${await sha256(join(outDir, n))}  ${n}\n`));
  await writeFile(join(outDir, "SHA256SUMS"), sums.join(""));
  return built;
}

// --- internal ---

async function releaseOne(target: ReleaseTarget, stage: string, outDir: string, version: string): Promise<string> {
  const dir = join(stage, target.name);
  const exe = target.windows ? "ctx.exe" : "ctx";
  await mkdir(dir, { recursive: true });
  await compile(join(dir, exe), target.bun, version);
  const archive = archiveName(version, target);
  const out = resolve(outDir, archive);
  const cmd = target.windows ? ["zip", "-q", "-X", "-j", out, join(dir, exe)] : ["tar", "-C", dir, "-czf", out, exe];
  const proc = Bun.spawnSync(cmd, { stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`${cmd[0]} failed for ${target.name}: ${proc.stderr.toString()}`);
  console.error(`release: ${archive}`);
  return archive;
}

async function sha256(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

const USAGE = `Usage: bun build.ts                      build dist/ctx for this machine
       bun build.ts --release [--targets a,b] [--out-dir DIR]
                                           build release archives and SHA256SUMS (default dist/release)`;

function parseCli(argv: string[]): { release: boolean; targets?: string[]; outDir: string } {
  let values: { release?: boolean; targets?: string; "out-dir"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        release: { type: "boolean" },
        targets: { type: "string" },
        "out-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (err) {
    console.error(`build: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    release: values.release === true,
    targets: values.targets?.split(","),
    outDir: values["out-dir"] ?? "./dist/release",
  };
}

if (import.meta.main) {
  const cli = parseCli(Bun.argv.slice(2));
  if (cli.release) {
    const unknown = cli.targets?.filter((t) => !RELEASE_TARGETS.some((r) => r.name === t)) ?? [];
    if (unknown.length > 0)
      throw new Error(
        `unknown target(s) ${unknown.join(", ")}; known: ${RELEASE_TARGETS.map((t) => t.name).join(", ")}`,
      );
    const targets = cli.targets ? RELEASE_TARGETS.filter((t) => cli.targets!.includes(t.name)) : RELEASE_TARGETS;
    const built = await release(cli.outDir, targets);
    console.error(`built ${built.length} archive(s) and SHA256SUMS in ${cli.outDir} (ctx ${pkg.version})`);
  } else {
    const version = sourceVersion();
    await compile("./dist/ctx", undefined, version);
    console.error(`built dist/ctx ${version}`);
  }
}
