import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { makeSandbox, REPO, runInstallSh, type Sandbox } from "./sandbox.ts";

let box: Sandbox;
let checkout: string;

beforeAll(() => {
  // A private copy of the checkout (sharing node_modules), so the build does not touch the real dist/.
  box = makeSandbox();
  checkout = join(box.root, "checkout");
  mkdirSync(checkout);
  for (const f of ["src", "plugin", "build.ts", "package.json", "tsconfig.json", "install.sh"]) {
    cpSync(join(REPO, f), join(checkout, f), { recursive: true, preserveTimestamps: true });
  }
  symlinkSync(join(REPO, "node_modules"), join(checkout, "node_modules"));
  utimesSync(join(checkout, "package.json"), new Date(0), new Date(0)); // node_modules is current: no npm install
});

afterAll(() => box?.cleanup());

test("README quick start: `sh install.sh --hooks` in a checkout builds, installs into ~/.local/bin and wires Claude Code", async () => {
  const claudeDir = join(box.home, ".claude");
  mkdirSync(claudeDir);
  const original = { model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } };
  writeFileSync(join(claudeDir, "settings.json"), JSON.stringify(original));

  const r = await runInstallSh("install.sh", ["--hooks"], box.env, checkout);
  expect(r.stderr).toContain(`installed ctx ${pkg.version}+source`); // a copy without .git: no commit to name
  expect(r.code).toBe(0);

  const bin = join(box.home, ".local", "bin", "ctx");
  expect(Bun.spawnSync([bin, "--version"]).stdout.toString()).toBe(`ctx ${pkg.version}+source\n`);
  const settings = JSON.parse(readFileSync(join(claudeDir, "settings.json"), "utf8"));
  expect(settings.model).toBe("opus");
  expect(settings.statusLine.command).toBe(`${bin} statusline`);
  expect(settings.hooks.Stop.map((g: { hooks: { command: string }[] }) => g.hooks[0]!.command)).toEqual([
    "notify-send done",
    `${bin} track`,
  ]);
  expect(settings.hooks.SessionStart[0].hooks.map((h: { command: string }) => h.command)).toEqual([
    `${bin} track`,
    `${bin} resume --hook`,
  ]);
  const backups = readdirSync(claudeDir).filter((f) => f.startsWith("settings.json.bak-"));
  expect(backups).toHaveLength(1);
  expect(JSON.parse(readFileSync(join(claudeDir, backups[0]!), "utf8"))).toEqual(original);
  // no terminal to ask on: the profile is left alone and the line to add is printed
  expect(r.stderr).toContain(`add it with: export PATH="${join(box.home, ".local", "bin")}:$PATH"`);
}, 120_000);

test("--from-source without a bun in the checkout: npm's own notices (npm 11's allowScripts) stay out of the install's lines", async () => {
  const sb = makeSandbox();
  try {
    const copy = join(sb.root, "checkout");
    mkdirSync(copy);
    for (const f of ["src", "plugin", "build.ts", "package.json", "tsconfig.json", "install.sh"])
      cpSync(join(REPO, f), join(copy, f), { recursive: true, preserveTimestamps: true });
    // a stand-in npm: warns as npm 11 does, then puts the real bun where `npm install bun@…` would
    const bin = join(sb.root, "fake-bin");
    mkdirSync(bin);
    const realBun = join(REPO, "node_modules", ".bin", "bun");
    writeFileSync(
      join(bin, "npm"),
      `#!/bin/sh\necho 'npm warn config allowScripts: lifecycle scripts need approval' >&2\n` +
        `while [ "$1" != "--prefix" ]; do shift; done\nmkdir -p "$2/node_modules/.bin"\nln -sf '${realBun}' "$2/node_modules/.bin/bun"\n`,
      { mode: 0o755 },
    );
    const env = { ...sb.env, PATH: `${bin}:${sb.env.PATH}` };
    const r = await runInstallSh("install.sh", ["--from-source"], env, copy);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("npm install bun@");
    expect(r.stderr).not.toContain("allowScripts");
  } finally {
    sb.cleanup();
  }
}, 120_000);
