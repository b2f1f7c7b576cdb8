/**
 * The stdin extremes, through the compiled binary: 50 MB of input (valid JSON
 * with a huge field, and garbage), no input at all, and a stdin left open
 * (with and without a partial payload). Every command exits 0 within its
 * stdin timeout plus slack and prints only what its contract allows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CTX_BIN, countedWaits, runCtx, type CtxRun } from "../helpers/ctx.ts";
import { FUZZ_TARGETS, type FuzzTarget } from "./fuzz-contract.ts";
import { plantState } from "./fuzz-plant.ts";
import { retarget, seedPayloads } from "./fuzz-seeds.ts";
import { changesOutsideState, makeSandbox, snapshot, waitForStrays, type Sandbox } from "./sandbox.ts";

const SLACK_MS = 2500;
const MB50 = 50 * 1024 * 1024;

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox();
  plantState(sb, Date.now());
});
afterAll(() => sb.cleanup());

function seedFor(t: FuzzTarget): Record<string, unknown> {
  return retarget(seedPayloads(t.seeds)[0]!, { sessionId: "fz-crit", project: sb.project, transcript: sb.transcript });
}

/** Runs the binary with stdin open and `head` written to it, never closing it; closes it after exit. */
async function runOpenStdin(t: FuzzTarget, head: string): Promise<CtxRun> {
  const proc = Bun.spawn([CTX_BIN, ...t.argv], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...sb.env, CTX_DEBUG: "waits" },
    cwd: sb.project,
    timeout: 20_000,
  });
  if (head) proc.stdin.write(head);
  proc.stdin.flush();
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  try {
    proc.stdin.end();
  } catch {
    // already closed by the exit
  }
  const counted = countedWaits(stderr);
  return { code, stdout, stderr: counted.stderr, waited: counted.waited };
}

for (const t of FUZZ_TARGETS) {
  describe(`ctx ${t.name} stdin extremes`, () => {
    const budget = t.stdinTimeoutMs + SLACK_MS;

    test("50 MB of valid JSON (one huge field) and 50 MB of garbage: exit 0, contract output, sleeping on nothing", async () => {
      const before = snapshot(sb.dir);
      const seed = seedFor(t);
      const huge = Buffer.from(JSON.stringify({ ...seed, padding: "p".repeat(MB50) }));
      const garbage = Buffer.alloc(MB50, '{["\\\u00ff');
      for (const stdin of [huge, garbage]) {
        const r = await runCtx(t.argv, {
          stdin,
          env: sb.env,
          cwd: sb.project,
          timeoutMs: budget * 3,
          countWaits: true,
        });
        expect({ code: r.code, stderr: r.stderr, contract: t.check(r.stdout) }).toEqual({
          code: 0,
          stderr: "",
          contract: undefined,
        });
        // ctx's own count: it slept on nothing (no lock, no transcript wait) while taking 50 MB in
        expect(r.waited!.sleptMs).toBeLessThan(SLACK_MS);
      }
      expect(await waitForStrays(sb.dir)).toBe(0);
      expect(changesOutsideState(sb, before, snapshot(sb.dir))).toEqual([]);
    }, 60_000);

    test("no input (stdin closed at once): exit 0, contract output", async () => {
      const r = await runCtx(t.argv, { stdin: "", env: sb.env, cwd: sb.project });
      expect({ code: r.code, stderr: r.stderr, contract: t.check(r.stdout) }).toEqual({
        code: 0,
        stderr: "",
        contract: undefined,
      });
      if (t.name === "statusline") expect(r.stdout).not.toBe("");
    });

    test(`stdin left open, empty or with a partial payload: gives up within ${t.stdinTimeoutMs} ms + slack, exit 0`, async () => {
      const partial = JSON.stringify(seedFor(t)).slice(0, 120);
      const runs = await Promise.all([runOpenStdin(t, ""), runOpenStdin(t, partial)]);
      for (const r of runs) {
        expect({ code: r.code, stderr: r.stderr, contract: t.check(r.stdout) }).toEqual({
          code: 0,
          stderr: "",
          contract: undefined,
        });
        // it exited with stdin still open (so it gave up), having waited for the rest as long as its timeout says
        expect(r.waited!.stdinMs).toBeGreaterThanOrEqual(t.stdinTimeoutMs - 50);
      }
    }, 30_000);
  });
}
