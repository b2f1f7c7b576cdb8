/**
 * Builds the single `ctx` executable: `bun build.ts` → dist/ctx.
 * `bun build.ts --release` builds every release target into dist/release/.
 */
import pkg from "./package.json" with { type: "json" };

const define = { CTX_VERSION: JSON.stringify(pkg.version) };

/** Compiles src/main.ts for `target` into `outfile`. Bytecode is tried first, then dropped if it fails. */
export async function compile(outfile: string, target?: Bun.Build.CompileTarget): Promise<void> {
  for (const bytecode of [true, false]) {
    const result = await Bun.build({
      entrypoints: ["./src/main.ts"],
      compile: target ? { target, outfile } : { outfile },
      minify: true,
      format: "esm",
      bytecode,
      sourcemap: "none",
      define,
    }).catch((err: unknown) => ({ success: false as const, logs: err instanceof AggregateError ? err.errors : [err] }));
    if (result.success) return;
    if (!bytecode) throw new Error(`build failed for ${target ?? "host"}: ${result.logs.map(String).join("\n")}`);
    console.error(`build: bytecode failed for ${target ?? "host"}, retrying without`);
  }
}

if (import.meta.main) {
  await compile("./dist/ctx");
  console.error(`built dist/ctx ${pkg.version}`);
}
