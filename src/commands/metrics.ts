import type { Deps } from "../core/deps.ts";
import { CtxError } from "../core/deps.ts";
import { renderMetrics } from "../core/metrics.ts";
import { loadConfig } from "../io/config.ts";
import { collectMetrics } from "../io/metrics/collect.ts";
import { writeTextfile } from "../io/metrics/textfile.ts";
import { parseFor } from "./args.ts";

/**
 * `ctx metrics`: every live session of this machine in the Prometheus text format on stdout, or
 * with `--textfile DIR` as `DIR/ctx.prom`, written atomically for node_exporter (docs/metrics.md).
 */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { values } = parseFor("metrics", argv);
  const cfg = loadConfig(deps, deps.cwd);
  const text = renderMetrics(collectMetrics(deps.env, cfg, deps.now()));
  const dir = values.textfile as string | undefined;
  if (dir === undefined) {
    deps.stdout(text);
    return 0;
  }
  try {
    writeTextfile(dir, text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CtxError(
      1,
      `cannot write ${dir}/ctx.prom: ${code ?? (err as Error).message}`,
      "give the directory node_exporter reads (--collector.textfile.directory); it must exist",
    );
  }
  return 0;
}
