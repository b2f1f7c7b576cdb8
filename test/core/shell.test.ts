import { expect, test } from "bun:test";
import { shellLine, shellQuote } from "../../src/core/shell.ts";

test("shellQuote() leaves safe words alone and quotes the rest", () => {
  expect(shellQuote("/a/b/ctx")).toBe("/a/b/ctx");
  expect(shellQuote("--output-format=json")).toBe("--output-format=json");
  expect(shellQuote("")).toBe("''");
  expect(shellQuote("it's")).toBe("'it'\\''s'");
  expect(shellQuote("$HOME")).toBe("'$HOME'");
});

test("a leading ~ is quoted (a shell would expand it), a later one is not", async () => {
  expect(shellQuote("~/x")).toBe("'~/x'");
  expect(shellQuote("/a~b/ctx")).toBe("/a~b/ctx");
  const argv = ["~/x", "/a~b", "x=~"];
  const p = Bun.spawn(["sh", "-c", `printf '%s\\0' ${shellLine(argv)}`], { stdout: "pipe", env: { HOME: "/home/h" } });
  const out = await new Response(p.stdout).text();
  expect(out.split("\0").slice(0, -1)).toEqual(argv);
});
