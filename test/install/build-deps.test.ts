/**
 * From a fresh checkout (no node_modules), the README's set-up line installs only what the build
 * needs: the real npm fetches bun@<pinned> (nothing else) into a private prefix, from a local
 * registry on 127.0.0.1 that serves the pinned bun package, and the build and install succeed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { makeSandbox, REPO, runInstallSh, type Sandbox } from "./sandbox.ts";

const BUN_VERSION = pkg.devDependencies.bun;
let box: Sandbox;
let checkout: string;
let registry: { url: string; requests: string[]; stop: () => void };

beforeAll(async () => {
  box = makeSandbox();
  checkout = join(box.root, "checkout");
  mkdirSync(checkout);
  for (const f of ["src", "plugin", "build.ts", "package.json", "tsconfig.json", "install.sh"])
    cpSync(join(REPO, f), join(checkout, f), { recursive: true });
  // the pinned bun as an npm package: its real binary, the package.json the registry has (less the
  // per-platform optional packages and the postinstall that picks among them: the binary is in place)
  const pack = join(box.root, "pack", "package");
  mkdirSync(join(pack, "bin"), { recursive: true });
  copyFileSync(join(REPO, "node_modules", "bun", "bin", "bun.exe"), join(pack, "bin", "bun.exe"));
  const manifest = { name: "bun", version: BUN_VERSION, bin: { bun: "bin/bun.exe" } };
  writeFileSync(join(pack, "package.json"), JSON.stringify(manifest));
  const tgz = join(box.root, "pack", `bun-${BUN_VERSION}.tgz`);
  const tar = Bun.spawnSync(["tar", "-czf", tgz, "-C", join(box.root, "pack"), "package"], {
    env: { ...process.env, GZIP: "-1" },
  });
  if (tar.exitCode !== 0) throw new Error(tar.stderr.toString());
  const bytes = readFileSync(tgz);
  const shasum = new Bun.CryptoHasher("sha1").update(bytes).digest("hex");
  const integrity = `sha512-${new Bun.CryptoHasher("sha512").update(bytes).digest("base64")}`;
  const requests: string[] = [];
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req): Response {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const base: string = `http://127.0.0.1:${server.port}`;
      if (path === "/bun")
        return Response.json({
          name: "bun",
          "dist-tags": { latest: BUN_VERSION },
          versions: {
            [BUN_VERSION]: {
              ...manifest,
              dist: { tarball: `${base}/bun/-/bun-${BUN_VERSION}.tgz`, shasum, integrity },
            },
          },
        });
      if (path === `/bun/-/bun-${BUN_VERSION}.tgz`) return new Response(Bun.file(tgz));
      return new Response("not found", { status: 404 });
    },
  });
  registry = { url: `http://127.0.0.1:${server.port}/`, requests, stop: () => server.stop(true) };
}, 120_000);

afterAll(() => {
  registry?.stop();
  box?.cleanup();
});

test("sh install.sh --hooks in a fresh checkout installs only bun@<pinned>, privately, then builds and installs", async () => {
  const env = {
    ...box.env,
    npm_config_registry: registry.url,
    npm_config_cache: join(box.root, "npm-cache"),
    npm_config_update_notifier: "false",
  };
  const r = await runInstallSh("install.sh", ["--hooks", "--no-modify-path"], env, checkout);
  expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
  // only bun was asked for: no Claude Code, Gemini CLI, Biome, TypeScript…
  expect([...new Set(registry.requests)].sort()).toEqual(["/bun", `/bun/-/bun-${BUN_VERSION}.tgz`]);
  const prefix = join(box.env.XDG_CACHE_HOME!, "ctx", `bun-${BUN_VERSION}`);
  expect(existsSync(join(prefix, "node_modules", ".bin", "bun"))).toBe(true);
  expect(existsSync(join(checkout, "node_modules"))).toBe(false);
  expect(existsSync(join(checkout, "package-lock.json"))).toBe(false);
  // messages name the absolute paths written
  const bin = join(box.home, ".local", "bin", "ctx");
  expect(r.stderr).toContain(`npm install bun@${BUN_VERSION} into ${prefix}`);
  expect(r.stderr).toContain(`building ${join(checkout, "dist", "ctx")} with bun ${BUN_VERSION}`);
  expect(r.stderr).toContain(`installed ctx ${pkg.version}+source to ${bin}`);
  expect(r.stdout + r.stderr).toContain(join(box.home, ".claude", "settings.json"));
  expect(Bun.spawnSync([bin, "--version"]).stdout.toString()).toBe(`ctx ${pkg.version}+source\n`); // no .git copied

  // a second run reuses the private bun: the registry is not asked again
  const before = registry.requests.length;
  const again = await runInstallSh("install.sh", ["--no-modify-path"], env, checkout);
  expect(again.code).toBe(0);
  expect(registry.requests.length).toBe(before);
}, 300_000);
