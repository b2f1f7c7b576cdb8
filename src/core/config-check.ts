/** Checks on a configuration that go beyond one value: key suggestions, the ladder, YAML positions. Pure. */
import { levelValueText, PERCENT_MAX } from "./budget.ts";
import { DEPRECATED, SCHEMA, type Config } from "./config-schema.ts";
import { editDistance as distance } from "./suggest.ts";

/** The known key nearest to a mistyped one (at most a third of its length away), or undefined. */
export function suggestKey(key: string): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  const last = key.slice(key.lastIndexOf(".") + 1);
  for (const known of [...Object.keys(SCHEMA), ...Object.keys(DEPRECATED)]) {
    // a key written without its section (or under the wrong one) is matched on its last part too
    const knownLast = known.slice(known.indexOf(".") + 1);
    const d = Math.min(distance(key, known), distance(last, knownLast) + (key.includes(".") ? 1 : 0));
    if (d < bestDist) [best, bestDist] = [known, d];
  }
  if (best === undefined || bestDist > Math.max(2, Math.floor(key.length / 3))) return undefined;
  const dep = DEPRECATED[best];
  return dep ? `${dep.use} (formerly ${best})` : best;
}

/** What is inconsistent in the ladder of levels and the respawn thresholds, one sentence each. */
export function ladderProblems(cfg: Config): string[] {
  const out: string[] = [];
  const rungs: Array<[string, number | false]> = [
    ["levels.warning", cfg["levels.warning"]],
    ["levels.critical", cfg["levels.critical"]],
    ["levels.auto_pause", cfg["levels.auto_pause"]],
  ];
  const on = rungs.filter((r): r is [string, number] => r[1] !== false);
  for (let i = 1; i < on.length; i++) {
    const [lowKey, low] = on[i - 1]!;
    const [highKey, high] = on[i]!;
    // a % and a token count compare only on a window: each unit is checked with its own kind
    if (low > PERCENT_MAX !== high > PERCENT_MAX) continue;
    if (low >= high) out.push(`${lowKey} (${levelValueText(low)}) must be below ${highKey} (${levelValueText(high)})`);
  }
  const compact = cfg["respawn.compact_at"];
  const restart = cfg["respawn.restart_at"];
  if (compact !== false && restart !== false && compact > restart)
    out.push(`respawn.compact_at (${compact}) must not be above respawn.restart_at (${restart})`);
  return out;
}

/** A 1-based line and column in a text. */
export interface Position {
  line: number;
  column: number;
}

/**
 * Where a YAML text stops parsing: the first line whose prefix no longer parses, at its first
 * non-blank character (Bun's YAML parser gives no position). Undefined when the whole text parses.
 */
export function yamlErrorPosition(text: string, parse: (t: string) => unknown): Position | undefined {
  const lines = text.split("\n");
  const fails = (n: number): boolean => {
    try {
      parse(lines.slice(0, n).join("\n"));
      return false;
    } catch {
      return true;
    }
  };
  if (!fails(lines.length)) return undefined;
  let lo = 1;
  let hi = lines.length; // invariant: the first hi lines fail
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fails(mid)) hi = mid;
    else lo = mid + 1;
  }
  const line = lines[hi - 1] ?? "";
  return { line: hi, column: line.length - line.trimStart().length + 1 };
}

/** Where a dotted key is written in a YAML text (nested or dotted form), or undefined. */
export function keyPosition(text: string, key: string): Position | undefined {
  const lines = text.split("\n");
  const at = (from: number, name: string, minIndent: number): Position | undefined => {
    const re = new RegExp(`^(\\s*)(["']?)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\2\\s*:`);
    for (let i = from; i < lines.length; i++) {
      const m = re.exec(lines[i]!);
      if (m && m[1]!.length >= minIndent) return { line: i + 1, column: m[1]!.length + 1 };
    }
    return undefined;
  };
  const whole = at(0, key, 0);
  if (whole) return whole;
  let pos: Position | undefined;
  for (const part of key.split(".")) {
    pos = at(pos ? pos.line : 0, part, pos ? pos.column : 0);
    if (!pos) return undefined;
  }
  return pos;
}
