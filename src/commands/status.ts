import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { Config } from "../core/config-schema.ts";
import type { Deps } from "../core/deps.ts";
import { homeDir } from "../core/paths.ts";
import { parseStatusArgs, type StatusOptions } from "../core/status/args.ts";
import { renderJson, renderTable } from "../core/status/render.ts";
import { filterRows, toRow, uniqueLabels, type StatusRow } from "../core/status/rows.ts";
import { loadConfig } from "../io/config.ts";
import { readIndex } from "../io/session/index.ts";
import { readBridge } from "../io/session/bridge.ts";
import { withBridge } from "../core/status/entry.ts";
import { labelBefore } from "../io/session/entry-label.ts";
import { watchLoop } from "../io/process/watch.ts";
import { ladderOf } from "../core/levels.ts";
import { rateLimitText } from "../core/rate-limits.ts";
import { readRateLimits } from "../io/session/rate-limits.ts";
import { projectFrom } from "../io/project.ts";

/** What one look at the index shows. */
export interface StatusView {
  rows: StatusRow[];
  hiddenStale: number;
  hiddenEnded: number;
}

/**
 * `ctx status`: every session of this machine from the per-user index, as a
 * table or JSON, once or refreshed with `--watch`. Takes no lock.
 */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const opts = parseStatusArgs(argv);
  const cfg = loadConfig(deps, deps.cwd);
  const tty = opts.watch || !deps.env.NO_COLOR ? await stdoutIsTerminal() : false;
  const color = !deps.env.NO_COLOR && (Boolean(deps.env.FORCE_COLOR) || tty);
  const frame = (): string => render(statusView(opts, cfg, deps), opts, color, deps);
  if (!opts.watch) {
    deps.stdout(frame());
    return 0;
  }
  const intervalMs = Math.max(100, (opts.intervalS ?? cfg["status.watch_interval_s"]) * 1000);
  const heading = (): string =>
    opts.json
      ? ""
      : `ctx status · ${new Date(deps.now()).toTimeString().slice(0, 8)} · every ${intervalMs / 1000}s · Ctrl-C quits\n\n`;
  await watchLoop({ frame: () => heading() + frame(), intervalMs, write: deps.stdout, inPlace: tty && !opts.json });
  return 0;
}

/** Reads the index and applies the options, at `deps.now()`. */
function statusView(opts: StatusOptions, cfg: Config, deps: Pick<Deps, "env" | "now" | "cwd">): StatusView {
  const now = deps.now();
  const thresholds = ladderOf(cfg);
  // Without --all, a session last updated before both horizons is hidden whatever it is: it is only counted.
  const horizonMs = Math.max(cfg["status.stale_after_s"], cfg["status.ended_visible_s"]) * 1000;
  const settledBeforeMs = opts.all ? undefined : now - horizonMs - SETTLE_MARGIN_MS;
  const rows = readIndex(deps.env, now, { settledBeforeMs }).map((s) => {
    // A live session's status line may be a request ahead of its entry, and it knows the label.
    const bridge = settled(s.entry.updated_ms, settledBeforeMs) ? undefined : readBridge(deps.env, s.entry.session_id);
    const entry = s.ended ? s.entry : withBridge(s.entry, bridge);
    const row = toRow(
      entry,
      now,
      cfg["status.stale_after_s"],
      thresholds,
      s.ended,
      s.supervisor,
      cfg["status.ended_visible_s"],
    );
    const label =
      bridge?.label ?? (settled(s.entry.updated_ms, settledBeforeMs) ? undefined : labelBefore(deps.env, s.entry));
    return label ? { ...row, label } : row;
  });
  const projects = opts.project === undefined ? undefined : spellings(opts.project, deps.cwd);
  const view = filterRows(rows, { all: opts.all, minPct: opts.minPct, projects });
  return { ...view, rows: uniqueLabels(view.rows) };
}

// --- internal ---

function settled(updatedMs: number, beforeMs: number | undefined): boolean {
  return beforeMs !== undefined && updatedMs < beforeMs;
}

/** Slack past the horizons before an entry counts as settled (the rows' ages are whole seconds). */
const SETTLE_MARGIN_MS = 60_000;

function render(view: StatusView, opts: StatusOptions, color: boolean, deps: Pick<Deps, "env" | "now">): string {
  // Refreshed JSON is one document per line (NDJSON), so a script can read it line by line.
  if (opts.json) return renderJson(view.rows, view.hiddenStale, deps.now(), opts.watch, view.hiddenEnded);
  const table = renderTable(view.rows, {
    color,
    hiddenStale: view.hiddenStale,
    hiddenEnded: view.hiddenEnded,
    home: homeDir(deps.env),
  });
  // the plan's usage windows, as the newest status line saw them (the account's, so one line for all)
  const recorded = readRateLimits(deps.env);
  const windows = recorded && rateLimitText(recorded.limits);
  return windows ? `${table}plan usage: ${windows}\n` : table;
}

/**
 * The project of the directory as given (made absolute, then walked up to the nearest folder
 * with `.ctx/` or the git root, so `--project .` works from a subfolder) and its real path.
 */
function spellings(dir: string, cwd: string): string[] {
  const abs = projectFrom(resolve(cwd, dir));
  try {
    const real = realpathSync(abs);
    return real === abs ? [abs] : [abs, real];
  } catch {
    return [abs];
  }
}

/** node:tty costs milliseconds at start-up, so it is loaded only here. */
async function stdoutIsTerminal(): Promise<boolean> {
  const { isatty } = await import("node:tty");
  return isatty(1);
}
