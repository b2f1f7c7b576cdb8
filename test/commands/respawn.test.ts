import { describe, expect, test } from "bun:test";
import { parseRespawnArgs } from "../../src/commands/respawn.ts";
import { CtxError } from "../../src/core/deps.ts";

describe("parseRespawnArgs", () => {
  test.each([
    [["start"], { action: "start", daemon: false, claudeArgs: [] }],
    [
      ["start", "--name", "w1", "--daemon", "--", "--model", "m", "--", "go"],
      { action: "start", name: "w1", daemon: true, claudeArgs: ["--model", "m", "--", "go"] },
    ],
    [["attach", "--target", "work:0.1"], { action: "attach", target: "work:0.1", daemon: false, claudeArgs: [] }],
    [["stop", "--name", "w1"], { action: "stop", name: "w1", daemon: false, claudeArgs: [] }],
  ])("%j", (argv, expected) => {
    expect(parseRespawnArgs(argv)).toEqual(expected as ReturnType<typeof parseRespawnArgs>);
  });

  test.each([
    [[], "expected start"],
    [["restart"], "expected start"],
    [["strt"], "got 'strt' (did you mean 'start'?)"],
    [["stpo"], "(did you mean 'stop'?)"],
    [["atach", "--target", "w:0"], "(did you mean 'attach'?)"],
    [["attach"], "--target"],
    [["start", "--name", "../x"], "bad --name"],
    [["stop", "--", "x"], "only start"],
    [["start", "prompt"], "unexpected argument"],
    [["start", "--bogus"], "bogus"],
  ])("%j is a usage error", (argv, message) => {
    let err: unknown;
    try {
      parseRespawnArgs(argv);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CtxError);
    expect((err as CtxError).code).toBe(2);
    expect((err as CtxError).message).toContain(message);
  });
});
