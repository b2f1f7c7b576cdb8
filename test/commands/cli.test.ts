/** One command-line grammar for every command, through the binary: errors, exit codes, help. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { GRAMMARS } from "../../src/core/grammars.ts";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox;
beforeEach(() => (sb = projectSandbox()));
afterEach(() => sb.t.cleanup());

const TYPED = ["finalize", "resume", "status", "config", "trust", "install", "uninstall", "doctor", "respawn", "track"];

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
  ])("ctx %s %s without the value: exit 2, option needs a value", async (cmd: string, rest: string) => {
    const args = rest.split(" ");
    const flag = args.at(-1)!;
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
