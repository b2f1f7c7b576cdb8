/** One command-line grammar for every command, through the binary: errors, exit codes, help. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { GRAMMARS } from "../../src/core/grammars.ts";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox;
beforeEach(() => (sb = projectSandbox()));
afterEach(() => sb.t.cleanup());

const TYPED = [
  "finalize",
  "resume",
  "run",
  "status",
  "config",
  "trust",
  "install",
  "uninstall",
  "doctor",
  "respawn",
  "track",
];

describe("a mistyped command or option", () => {
  test("ctx stauts: exit 2 with the command meant", async () => {
    const r = await runCtx(["stauts"], { env: sb.env, cwd: sb.project });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: "ctx: unknown command 'stauts'. Did you mean 'ctx status'? Run 'ctx --help' for the list.\n",
    });
    const far = await runCtx(["frobnicate"], { env: sb.env, cwd: sb.project });
    expect(far.stderr).toBe("ctx: unknown command 'frobnicate'. Run 'ctx --help' for the list.\n");
  });
  test("ctx status --jsno: the option meant", async () => {
    const r = await runCtx(["status", "--jsno"], { env: sb.env, cwd: sb.project });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: "ctx status: unknown option --jsno (did you mean --json?)\nRun 'ctx status --help'.\n",
    });
  });
  test("ctx -v, -V, --version and version all print the version", async () => {
    for (const flag of ["-v", "-V", "--version", "version"]) {
      const r = await runCtx([flag], { env: sb.env, cwd: sb.project });
      expect({ flag, code: r.code, out: /^ctx \d+\.\d+\.\d+/.test(r.stdout) }).toEqual({ flag, code: 0, out: true });
    }
  });
  test("ctx --help lists the commands people type before the hooks", async () => {
    const r = await runCtx(["--help"], { env: sb.env, cwd: sb.project });
    const names = [...r.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
    expect(names).toEqual([
      "install",
      "status",
      "resume",
      "run",
      "respawn",
      "doctor",
      "config",
      "trust",
      "uninstall",
      "finalize",
      "metrics",
      "prune",
      "statusline",
      "monitor",
      "track",
    ]);
    expect(r.stdout.indexOf("Hooks (")).toBeGreaterThan(r.stdout.indexOf("finalize"));
    expect(r.stdout.indexOf("Hooks (")).toBeLessThan(r.stdout.indexOf("statusline"));
  });
});

describe("every command the same way", () => {
  test.each(TYPED)("ctx %s --bogus: exit 2, what is wrong, and where help is", async (cmd) => {
    const r = await runCtx([cmd, "--bogus"], { env: sb.env, cwd: sb.project });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `ctx ${cmd}: unknown option --bogus\nRun 'ctx ${cmd} --help'.\n`,
    });
  });
  test.each([
    ["finalize", "--session"],
    ["status", "--min"],
    ["respawn", "stop --name"],
    ["track", "--session"],
    ["run", "-p"],
  ])("ctx %s %s without the value: exit 2, option needs a value", async (cmd: string, rest: string) => {
    const args = rest.split(" ");
    // a short option is named by its long form (`-p` is `--prompt`), never as `-p,`
    const flag = args.at(-1) === "-p" ? "--prompt" : args.at(-1)!;
    const r = await runCtx([cmd, ...args], { env: sb.env, cwd: sb.project });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: `ctx ${cmd}: option ${flag} needs a value\nRun 'ctx ${cmd} --help'.\n`,
    });
  });
  test("a value given to a flag, and a stray argument, are usage errors too", async () => {
    const flagValue = await runCtx(["status", "--json=yes"], { env: sb.env, cwd: sb.project });
    expect({ code: flagValue.code, stderr: flagValue.stderr }).toEqual({
      code: 2,
      stderr: "ctx status: option --json takes no value\nRun 'ctx status --help'.\n",
    });
    const stray = await runCtx(["install", "extra", "--dry-run"], { env: sb.env, cwd: sb.project });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toStartWith("ctx install: unexpected argument 'extra'");
  });
  test("hooks never fail on arguments", async () => {
    for (const args of [
      ["statusline", "--bogus"],
      ["monitor", "--bogus"],
      ["resume", "--hook", "--bogus"],
    ]) {
      const r = await runCtx(args, { env: sb.env, cwd: sb.project, stdin: "{}" });
      expect({ args, code: r.code }).toEqual({ args, code: 0 });
    }
  });
  test.each(Object.keys(GRAMMARS))("ctx %s --help lists exactly the options the parser takes", async (cmd) => {
    const r = await runCtx([cmd, "--help"], { env: sb.env, cwd: sb.project });
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith(`Usage: ctx ${cmd}`);
    const listed = [...r.stdout.matchAll(/^ {2}(?:-\w, | {4})--([a-z-]+)/gm)].map((m) => m[1]);
    expect(listed).toEqual([...Object.keys(GRAMMARS[cmd as keyof typeof GRAMMARS].options), "help"]);
  });
});

describe("help names every client and event", () => {
  test("track --help names StopFailure; monitor --help names Codex CLI", async () => {
    const track = await runCtx(["track", "--help"], { env: sb.env, cwd: sb.project });
    expect(track.stdout).toContain("StopFailure");
    const monitor = await runCtx(["monitor", "--help"], { env: sb.env, cwd: sb.project });
    expect(monitor.stdout).toContain("Codex CLI");
  });
});
