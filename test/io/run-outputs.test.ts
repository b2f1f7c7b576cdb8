import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";

test("ctx run's own output files are the regular files its stdout and stderr go to; a pipe is none", async () => {
  const t = tempDir();
  try {
    const out = join(t.dir, "ctx-run.json");
    const err = join(t.dir, "ctx-run.err");
    const mod = join(import.meta.dir, "..", "..", "src", "io", "run", "outputs.ts");
    const code = `import { ownOutputFiles } from ${JSON.stringify(mod)}; console.log(JSON.stringify(ownOutputFiles()));`;
    const redirected = Bun.spawn([process.execPath, "-e", code], { stdout: Bun.file(out), stderr: Bun.file(err) });
    expect(await redirected.exited).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual([out, err]);
    const piped = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
    expect(JSON.parse(await new Response(piped.stdout).text())).toEqual([]);
  } finally {
    t.cleanup();
  }
});
