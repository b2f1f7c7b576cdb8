/**
 * `ctx resume --print <file>` with things that are not summaries: devices that
 * never end, a FIFO nobody writes to, a sparse file that claims 2 GB. Each is
 * refused at once with a clear message; nothing is read past the cap.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { closeSync, openSync, ftruncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox()));
afterEach(() => sb.cleanup());

const print = (file: string) => runCtx(["resume", "--print", file], { env: sb.env, cwd: sb.project, timeoutMs: 8000 });

test.each([
  ["/dev/zero", () => "/dev/zero", /not a regular file/],
  ["/dev/urandom", () => "/dev/urandom", /not a regular file/],
  [
    "a FIFO nobody writes to",
    () => {
      const p = join(sb.dir, "fifo.md");
      Bun.spawnSync(["mkfifo", p]);
      return p;
    },
    /not a regular file/,
  ],
  [
    "a sparse file of 2 GB",
    () => {
      const p = join(sb.dir, "huge.md");
      const fd = openSync(p, "w");
      ftruncateSync(fd, 2 * 1024 ** 3);
      closeSync(fd);
      return p;
    },
    /summary too large/,
  ],
])("%s: refused at once, exit 1", async (_name, make, message) => {
  const r = await print(make());
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(message); // refused for what it is, not after reading it (a device never ends)
});

test("the control: a real summary prints", async () => {
  const p = join(sb.dir, "summary-t-20250101-000000.md");
  writeFileSync(p, "# Summary\n- next step\n");
  const r = await print(p);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout).toContain("next step");
});
