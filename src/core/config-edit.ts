/**
 * Setting one key in a config file's YAML text, keeping every other line: `ctx config --budget`
 * and `ctx install --budget` write `context.budget` this way. Pure.
 */

/**
 * The text with `key` (`section.name`) set to `value`: a `section.name:` line or a `name:` line in the
 * `section:` block is rewritten in place; else the key is added inside the block, or as a dotted line at the end.
 */
export function setYamlKey(text: string, key: string, value: string): string {
  const dot = key.indexOf(".");
  const section = key.slice(0, dot);
  const name = key.slice(dot + 1);
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const flat = lines.findIndex((l) => lineKey(l) === key && !/^\s/.test(l));
  if (flat >= 0) return done(lines, flat, `${key}: ${value}`);
  const head = lines.findIndex((l) => /^\S/.test(l) && lineKey(l) === section && /:\s*(#.*)?$/.test(l));
  if (head >= 0) {
    let end = head + 1;
    while (end < lines.length && (/^\s/.test(lines[end]!) || lines[end]!.trim() === "")) end++;
    const body = lines.slice(head + 1, end);
    const indent = body.find((l) => l.trim() !== "" && !l.trim().startsWith("#"))?.match(/^\s+/)?.[0] ?? "  ";
    const own = body.findIndex(
      (l) => l.startsWith(indent) && !/^\s/.test(l.slice(indent.length)) && lineKey(l) === name,
    );
    if (own >= 0) return done(lines, head + 1 + own, `${indent}${name}: ${value}`);
    return [...lines.slice(0, head + 1), `${indent}${name}: ${value}`, ...lines.slice(head + 1)].join("\n") + "\n";
  }
  return [...lines, `${key}: ${value}`].join("\n") + "\n";
}

// --- internal ---

/** The key a `key: value` line sets (quotes dropped), or undefined. */
function lineKey(line: string): string | undefined {
  const m = /^\s*["']?([A-Za-z0-9_.]+)["']?\s*:/.exec(line);
  return m?.[1];
}

function done(lines: string[], at: number, replacement: string): string {
  const copy = [...lines];
  copy[at] = replacement;
  return `${copy.join("\n")}\n`;
}
