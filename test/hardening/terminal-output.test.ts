/**
 * Issue 21, class 5: no escape sequence from a file name, a config key or a project path reaches the
 * terminal. `ctx resume --print` (a summary's file names), `ctx doctor` and `ctx config` (unknown
 * keys, the project path) used to print an OSC 52 (clipboard write) raw; every typed command's
 * output now goes through the terminal sanitiser (main.ts), as `ctx status`'s always did.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";
import { runInproc } from "./inproc.ts";

/** OSC 52: put "evil" on the clipboard; then a CSI that clears the screen, a C1 CSI and a bidi override. */
const OSC52 = "\u001b]52;c;ZXZpbA==\u0007";
const HOSTILE = `${OSC52}\u001b[2J\u009b31m\u202e`;
/** What must never reach a terminal: ESC, BEL, C1 controls, bidi overrides. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let t: { dir: string; cleanup: () => void };
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  t = tempDir("ctx-term-");
  project = join(t.dir, `proj${OSC52}`);
  mkdirSync(join(project, ".ctx", "sessions"), { recursive: true });
  env = isolatedEnv(t.dir, { CLAUDE_PROJECT_DIR: project });
  mkdirSync(env.TMPDIR!, { recursive: true });
  mkdirSync(env.HOME!, { recursive: true });
  // A committed config with an unknown key and a bad value that carry the sequence (YAML escapes \e and \a).
  writeFileSync(
    join(project, ".ctx", "config.yaml"),
    '"\\e]52;c;ZXZpbA==\\a\\e[2J": 1\nlevels.warning: "\\e]52;c;ZXZpbA==\\a"\n',
  );
});
afterEach(() => t.cleanup());

const run = (argv: string[]) => runInproc(argv, { env, cwd: project, stdin: new Uint8Array() });

function expectSafe(r: { stdout: string; stderr: string }): void {
  expect(r.stdout.split("\n").filter((l) => UNSAFE.test(l))).toEqual([]);
  expect(r.stderr.split("\n").filter((l) => UNSAFE.test(l))).toEqual([]);
}

describe("terminal output of typed commands", () => {
  test("resume --print: a summary's file names and its path", async () => {
    const summary = join(project, ".ctx", "sessions", "summary-T-20260101-000000.md");
    writeFileSync(summary, `# Handoff summary: T\n\n## Files modified (newest first)\n- \`a${HOSTILE}.ts\` (Write)\n`);
    const r = await run(["resume", "--print", summary]);
    expect(r.code).toBe(0);
    expectSafe(r);
    expect(r.stdout).toContain("## Files modified (newest first)\n- `a");
    const dry = await run(["resume", "--dry-run", summary]);
    expectSafe(dry);
  });

  test("doctor: unknown keys, bad values and the project path", async () => {
    const r = await run(["doctor"]);
    expectSafe(r);
    expect(r.stdout).toContain("levels.warning");
  });

  test("config: the table, --json (still valid JSON) and the problems on stderr", async () => {
    const r = await run(["config"]);
    expectSafe(r);
    expect(r.stderr).toContain("problem(s)");
    const j = await run(["config", "--json"]);
    expectSafe(j);
    expect(JSON.parse(j.stdout).version).toBe(1);
  });

  test("an unknown command and a failing command's error", async () => {
    expectSafe(await run([`nope${HOSTILE}`]));
    const missing = await run(["resume", "--print", join(project, `gone${HOSTILE}.md`)]);
    expect(missing.code).toBe(1);
    expectSafe(missing);
  });
});
