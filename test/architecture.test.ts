/**
 * The rules of ARCHITECTURE.md and DEVELOPERS.md that a machine can check:
 * small files, a pure core, one place that exits, every state path from the
 * layout module.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "src");

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The code of a file without its comments (so a path named in a doc comment does not count). */
function code(path: string): string {
  return readFileSync(path, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

function imports(path: string): string[] {
  return [...code(path).matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
}

const files = sources();
const rel = (p: string) => relative(SRC, p);

test("no file in src/ is over 220 lines", () => {
  const long = files.map((f) => [rel(f), readFileSync(f, "utf8").split("\n").length - 1] as const);
  expect(long.filter(([, n]) => n > 220)).toEqual([]);
  expect(files.length).toBeGreaterThan(100);
});

test("core/ is pure: nothing from io/, no file system, process or clock", () => {
  const core = files.filter((f) => rel(f).startsWith("core/"));
  const bad = core.flatMap((f) =>
    imports(f)
      // node:util gives parseArgs, a pure function; nothing else from the runtime
      .filter((i) => (i.startsWith("node:") && i !== "node:util") || i.startsWith("bun:") || /(^|\/)io\//.test(i))
      .map((i) => `${rel(f)}: ${i}`),
  );
  expect(bad).toEqual([]);
  // Bun.YAML (a formatter) is pure; Bun.file, Bun.spawn and the like are not.
  const impure = core.filter((f) => /\bprocess\.|\bDate\.now\(|\bBun\.(?!YAML\b)/.test(code(f))).map(rel);
  expect(impure).toEqual([]);
});

test("io/ never imports a command, and only main.ts exits", () => {
  const ioToCommands = files
    .filter((f) => rel(f).startsWith("io/"))
    .flatMap((f) =>
      imports(f)
        .filter((i) => i.includes("commands/"))
        .map((i) => `${rel(f)}: ${i}`),
    );
  expect(ioToCommands).toEqual([]);
  expect(files.filter((f) => /\bprocess\.exit\(/.test(code(f))).map(rel)).toEqual(["main.ts"]);
});

test("state paths and file names are spelled out only in core/layout.ts (and its per-user half, layout-user.ts)", () => {
  // Every state folder and file name ctx writes: a literal (string, template or regular expression) that
  // starts with one of them builds or recognises a state file, and belongs in the layout.
  const folders = /"(?:state\/[a-z-]+)"|join\([^)]*"state"/;
  const names = [
    "context-usage\\.json",
    "resume-ledger\\.json",
    "respawn-pending\\.json",
    "retention\\.(?:json|claim)",
    "token-ledger\\.json",
    "LATEST-SESSION",
    "ACTIVE-PAUSE-",
    "session-(?!id\\b)",
    "summary-(?!\\*)",
    "claude-ctx-",
    "windows\\.json",
    "index-digest\\.json",
    "errors\\.log",
    "summary-key",
  ];
  const literal = new RegExp(`(?:["'\`]|/\\^)(?:${names.join("|")})`);
  const layoutFiles = ["core/layout.ts", "core/layout-user.ts"];
  const offenders = files
    .filter((f) => !layoutFiles.includes(rel(f)))
    .flatMap((f) =>
      code(f)
        .split("\n")
        .filter((l) => !/^\s*import\b|^\s*}\s*from\b/.test(l) && (folders.test(l) || literal.test(l)))
        .map((l) => `${rel(f)}: ${l.trim()}`),
    );
  expect(offenders).toEqual([]);
});

test("source comments point at docs/ in the repository, never at a file outside it", () => {
  const outside = /shared\/PROTOCOL|PROTOCOL\.md|\/work\/shared|\.\.\/shared\//;
  expect(files.filter((f) => outside.test(readFileSync(f, "utf8"))).map(rel)).toEqual([]);
  // every docs/ file a comment names exists
  const named = new Set(
    files.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/\bdocs\/([a-z-]+\.md)/g)].map((m) => m[1]!)),
  );
  const docs = new Set(readdirSync(join(SRC, "..", "docs")));
  expect([...named].filter((n) => !docs.has(n))).toEqual([]);
});

test("no `any` in src/: parsed JSON is unknown and narrowed where it is read", () => {
  const any = /(?::\s*any\b|\bany\[\]|<any>|,\s*any>|\bas any\b)/;
  const offenders = files.flatMap((f) =>
    code(f)
      .split("\n")
      .filter((l) => any.test(l.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')))
      .map((l) => `${rel(f)}: ${l.trim()}`),
  );
  expect(offenders).toEqual([]);
});
