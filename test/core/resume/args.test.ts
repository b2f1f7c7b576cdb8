import { describe, expect, test } from "bun:test";
import { parseResumeArgs } from "../../../src/core/resume/args.ts";
import { CtxError } from "../../../src/core/deps.ts";

const _ = (argv: string) => parseResumeArgs(argv === "" ? [] : argv.split(" "));

describe("parseResumeArgs", () => {
  test.each([
    ["s.md", { mode: "launch", summary: "s.md", latest: false, passthrough: [] }],
    [
      "s.md -- -p --output-format json",
      { mode: "launch", summary: "s.md", latest: false, passthrough: ["-p", "--output-format", "json"] },
    ],
    ["--latest", { mode: "launch", summary: undefined, latest: true, passthrough: [] }],
    ["--print s.md", { mode: "print", summary: "s.md", latest: false, passthrough: [] }],
    ["--print --latest", { mode: "print", summary: undefined, latest: true, passthrough: [] }],
    ["--dry-run --latest -- -p", { mode: "dry-run", summary: undefined, latest: true, passthrough: ["-p"] }],
    ["s.md -- --latest -- x", { mode: "launch", summary: "s.md", latest: false, passthrough: ["--latest", "--", "x"] }],
    ["--hook", { mode: "hook" }],
    ["--hook --whatever", { mode: "hook" }],
  ])("%s", (argv, want) => {
    expect(_(argv)).toEqual(want as never);
  });

  test.each([
    ["", /which summary/],
    ["a.md b.md", /one summary at a time/],
    ["--latest a.md", /either/],
    ["--print --dry-run s.md", /exclude/],
    ["--frobnicate s.md", /unknown option --frobnicate/],
  ])("%j is a usage error (exit 2)", (argv, msg) => {
    try {
      _(argv);
      throw new Error("no error");
    } catch (err) {
      expect(err).toBeInstanceOf(CtxError);
      expect((err as CtxError).code).toBe(2);
      expect((err as CtxError).message).toMatch(msg);
    }
  });
});
