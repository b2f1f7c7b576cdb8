/**
 * Inputs the fuzzer found breaking a contract, kept as named cases. (The full
 * disk's empty lock file is in hostile-mount.test.ts; the corrupt token ledger
 * and index entry in corrupt.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkStatusline } from "./fuzz-contract.ts";
import { runInproc } from "./inproc.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeAll(() => (sb = makeSandbox()));
afterAll(() => sb.cleanup());

async function statusline(payload: Record<string, unknown>): Promise<string> {
  const r = await runInproc(["statusline"], {
    env: sb.env,
    cwd: sb.project,
    stdin: Buffer.from(JSON.stringify(payload)),
  });
  expect(r.code).toBe(0);
  return r.stdout;
}

describe("fuzz regressions: ctx statusline", () => {
  // seed 1592641479, statusline #1076 [hostile-string@$.workspace.project_dir, …] and #1016 [hostile-string@$.cwd, …]
  test.each([
    ["a right-to-left override in the project dir", { workspace: { project_dir: "/p/\u202eevil" } }],
    ["bidi isolates in the project dir", { workspace: { project_dir: "/p/\u2066iso\u2069" } }],
    ["line and paragraph separators in the model name", { model: { display_name: "a\u2028b\u2029c" } }],
    ["a left-to-right mark in the model name", { model: { display_name: "\u200eSonnet\u200f" } }],
  ])("%s is stripped: the line stays one plain line", async (_name, over) => {
    const out = await statusline({
      session_id: "reg",
      model: { display_name: "Sonnet 4.5" },
      context_window: { used_percentage: 76, context_window_size: 200000 },
      ...over,
    });
    expect(checkStatusline(out)).toBeUndefined();
    expect(out).toMatch(/evil|iso|abc|Sonnet/);
  });
});
