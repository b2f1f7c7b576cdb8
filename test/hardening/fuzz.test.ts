/**
 * Fuzzing every stdin-reading command with mutations of recorded payloads:
 * FUZZ_COUNT inputs per command in-process through main() (the bulk), and
 * FUZZ_BIN_COUNT per command through the compiled binary (exit code, stdout,
 * stderr and the waits ctx counted, at the process level). Replay with CTX_FUZZ_SEED; no wall clock:
 * a run is bounded by the CPU it used and the sleeps ctx counted, which load does not inflate.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { FUZZ_TARGETS, type FuzzTarget } from "./fuzz-contract.ts";
import { mutate, type FuzzInput } from "./fuzz-mutate.ts";
import { FUZZ_SESSIONS, plantState } from "./fuzz-plant.ts";
import { FUZZ_BIN_COUNT, FUZZ_COUNT, FUZZ_SEED, rngFor, type Rng } from "./fuzz-rng.ts";
import { retarget, seedPayloads } from "./fuzz-seeds.ts";
import { runInproc } from "./inproc.ts";
import { changesOutsideState, makeSandbox, snapshot, waitForStrays, type Sandbox } from "./sandbox.ts";

/** In-process: no run may use more CPU than this (the slowest legitimate work is parsing a few MB). */
const INPROC_CPU_MS = 1500;
/** No run may sleep longer than this, as ctx counts it (no lock waited out, no transcript wait with FAST_ENV). */
const SLEPT_MS = 500;
/** Through the binary: what a run may sleep, as ctx counts it (the binary keeps the default waits). */
const BIN_SLACK_MS = 2500;
const PARALLEL = 6;

/** Hooks do not wait for flushes or spawn finalize in the in-process bulk (the binary runs keep the defaults). */
const FAST_ENV = {
  CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0",
  CTX_TRACK_TRANSCRIPT_WAIT_MS: "0",
  CTX_TRACK_FINALIZE_ON_END: "never",
  CTX_RESUME_FINALIZE_WAIT_MS: "0",
};
/** The background finalizes the monitor starts at CRITICAL run from source in the in-process bulk: no transpiler cache in the sandbox home. */
const CHILD_ENV = { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" };

beforeAll(() =>
  console.log(
    `fuzz: seed ${FUZZ_SEED} (CTX_FUZZ_SEED), ${FUZZ_COUNT} in-process + ${FUZZ_BIN_COUNT} binary inputs per command`,
  ),
);

/** The n-th input for a target: a recorded seed pointed at the sandbox, then mutated. */
function* inputs(t: FuzzTarget, sb: Sandbox, rng: Rng, n: number): Generator<FuzzInput & { i: number }> {
  const seeds = seedPayloads(t.seeds);
  for (let i = 0; i < n; i++) {
    const seed = retarget(rng.pick(seeds), {
      sessionId: rng.pick(FUZZ_SESSIONS),
      project: sb.project,
      transcript: rng.chance(0.8) ? sb.transcript : rng.pick(sb.hostilePaths),
    });
    yield {
      i,
      ...(rng.chance(0.05)
        ? { bytes: Buffer.from(JSON.stringify(seed)), recipe: ["unmutated"] }
        : mutate(rng, seed, sb.hostilePaths)),
    };
  }
}

function errorLog(sb: Sandbox): string[] {
  try {
    return readFileSync(join(sb.env.XDG_STATE_HOME!, "ctx", "errors.log"), "utf8")
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
}

for (const target of FUZZ_TARGETS) {
  describe(`fuzz ctx ${target.name}`, () => {
    let sb: Sandbox;
    beforeAll(() => {
      sb = makeSandbox(CHILD_ENV, true);
      plantState(sb, Date.now());
    });
    afterAll(() => sb.cleanup());

    test(`${FUZZ_COUNT} mutated inputs in-process: exit 0, contract stdout, silent stderr, within ${INPROC_CPU_MS} ms of CPU, no write outside state`, async () => {
      const rng = rngFor(`${target.name}/inproc`);
      const before = snapshot(sb.dir);
      const failures: string[] = [];
      let slowest = 0;
      let printed = 0;
      for (const input of inputs(target, sb, rng, FUZZ_COUNT)) {
        const r = await runInproc(target.argv, {
          env: { ...sb.env, ...FAST_ENV },
          cwd: sb.project,
          stdin: input.bytes,
        });
        slowest = Math.max(slowest, r.cpuMs);
        if (r.stdout) printed++;
        const bad = r.thrown
          ? `main threw ${String(r.thrown)}`
          : r.code !== 0
            ? `exit ${r.code}`
            : r.stderr
              ? `stderr ${r.stderr.slice(0, 200)}`
              : r.cpuMs > INPROC_CPU_MS
                ? `used ${r.cpuMs.toFixed(0)} ms of CPU`
                : r.sleptMs > SLEPT_MS
                  ? `slept ${r.sleptMs} ms`
                  : target.check(r.stdout);
        if (bad && failures.length < 10) failures.push(`#${input.i} [${input.recipe.join(", ")}]: ${bad}`);
      }
      expect(await waitForStrays(sb.dir)).toBe(0);
      const outside = changesOutsideState(sb, before, snapshot(sb.dir));
      console.log(
        `fuzz ${target.name}: ${FUZZ_COUNT} in-process runs, ${printed} printed output, most CPU ${slowest.toFixed(0)} ms`,
      );
      expect(printed).toBeGreaterThan(0); // the inputs reach the working paths, not only the rejections
      expect(failures).toEqual([]);
      expect(outside).toEqual([]);
      expect(errorLog(sb)).toEqual([]);
    }, 240_000);

    test(`${FUZZ_BIN_COUNT} mutated inputs through dist/ctx: exit 0, contract stdout, silent stderr, sleeping under ${BIN_SLACK_MS} ms`, async () => {
      const rng = rngFor(`${target.name}/binary`);
      const all = [...inputs(target, sb, rng, FUZZ_BIN_COUNT)];
      const before = snapshot(sb.dir);
      const failures: string[] = [];
      const budget = target.stdinTimeoutMs + BIN_SLACK_MS;
      for (let at = 0; at < all.length; at += PARALLEL) {
        const batch = all.slice(at, at + PARALLEL);
        const runs = await Promise.all(
          batch.map((input) =>
            runCtx(target.argv, {
              stdin: input.bytes,
              env: sb.env,
              cwd: sb.project,
              timeoutMs: budget * 3,
              countWaits: true,
            }),
          ),
        );
        runs.forEach((r, k) => {
          const bad =
            r.code !== 0
              ? `exit ${r.code}`
              : r.stderr
                ? `stderr ${r.stderr.slice(0, 200)}`
                : r.waited!.sleptMs > BIN_SLACK_MS
                  ? `slept ${r.waited!.sleptMs} ms`
                  : target.check(r.stdout);
          if (bad) failures.push(`#${batch[k]!.i} [${batch[k]!.recipe.join(", ")}]: ${bad}`);
        });
      }
      expect(failures).toEqual([]);
      expect(await waitForStrays(sb.dir)).toBe(0);
      expect(changesOutsideState(sb, before, snapshot(sb.dir))).toEqual([]);
    }, 240_000);
  });
}
