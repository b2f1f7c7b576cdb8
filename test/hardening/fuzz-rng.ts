/**
 * The fuzzer's seeded randomness and its knobs. The seed is fixed so a failure
 * can be replayed: `CTX_FUZZ_SEED=<seed> bun test test/hardening`.
 */

/** The seed: `CTX_FUZZ_SEED`, else a fixed default. */
export const FUZZ_SEED = envInt("CTX_FUZZ_SEED", 0x5eedc7c7);
/**
 * Generated inputs per command run in-process through `main()`: 500 by default (a quick `npm test`);
 * `npm run test:fuzz` runs 5,000.
 */
export const FUZZ_COUNT = envInt("CTX_FUZZ_COUNT", 500);
/** Generated inputs per command run through the compiled binary (the process-level contract): 24, or 75 in test:fuzz. */
export const FUZZ_BIN_COUNT = envInt("CTX_FUZZ_BIN_COUNT", 24);

/** A small, fast, seedable generator (mulberry32). */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** One element of `xs`. */
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A per-command generator derived from the seed, so commands do not shift each other's inputs. */
export function rngFor(command: string, seed = FUZZ_SEED): Rng {
  let h = seed >>> 0;
  for (const c of command) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return new Rng(h);
}

// --- internal ---

function envInt(name: string, dflt: number): number {
  const v = process.env[name];
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : dflt;
}
