/**
 * The hooks' hot path (main → statusline / monitor) must not load modules that
 * cost milliseconds at start-up: node:fs (1-2 ms), node:tty (5 ms),
 * node:child_process. Those are fine in other commands, which the bundle
 * loads lazily (build.ts splits chunks).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const SRC = join(import.meta.dir, "..", "src");
const HEAVY = /^(node:)?(fs|tty|child_process|fs\/promises|os|util)$/;

/** Every module reached from `entry` through static imports (not `import()` or type-only imports). */
function staticGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  if (!entry.endsWith(".ts")) return seen;
  const text = readFileSync(entry, "utf8");
  for (const m of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"([^"]+)";/gms)) {
    const spec = m[1]!;
    staticGraph(spec.startsWith(".") ? resolve(dirname(entry), spec) : spec, seen);
  }
  return seen;
}

test.each([
  ["main.ts"],
  ["commands/statusline.ts"],
  ["commands/monitor.ts"],
])("%s loads no heavy module statically", (file) => {
  const heavy = [...staticGraph(join(SRC, file))].filter((m) => HEAVY.test(m));
  expect(heavy).toEqual([]);
});
