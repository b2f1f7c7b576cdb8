import { expect, test } from "bun:test";
import { runChild } from "../../../src/io/process/child.ts";

test("runChild collects the output and the exit code, with stdin when given", async () => {
  const r = await runChild(["sh", "-c", "cat; echo err >&2; exit 3"], {
    cwd: "/",
    env: { PATH: process.env.PATH },
    timeoutMs: 10_000,
    stdin: "in",
  });
  expect(r).toEqual({ code: 3, stdout: "in", stderr: "err\n", timedOut: false });
});

test("runChild kills a child that runs past its timeout", async () => {
  const r = await runChild(["sleep", "10"], { cwd: "/", env: { PATH: process.env.PATH }, timeoutMs: 100 });
  expect(r.timedOut).toBe(true);
  expect(r.code).not.toBe(0);
});
