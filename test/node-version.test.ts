/**
 * The Node.js the README's test line needs. npm installs the pinned clients; the newest declares
 * `engines.node >=22` (npm warns EBADENGINE on Node 20), but the tests never run a client through
 * Node: each package's `bin/claude.exe` is the native executable its postinstall put there
 * (test/e2e/claude.ts runs it directly). This checks both facts, and that README and CONTRIBUTING
 * say what they imply, so a client that starts needing Node at run time fails here first.
 */
import { expect, test } from "bun:test";
import { openSync, readFileSync, readSync, closeSync } from "node:fs";
import { join } from "node:path";
import { CLIENTS, REPO_ROOT } from "./e2e/claude.ts";

const MAGIC = [
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]), // ELF
  Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), // Mach-O 64-bit
  Buffer.from([0xca, 0xfe, 0xba, 0xbe]), // Mach-O universal
];

function head(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(4);
    readSync(fd, buf, 0, 4, 0);
    return buf;
  } finally {
    closeSync(fd);
  }
}

const engines = (pkg: string): string =>
  JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")).engines?.node ?? "";

test.each(Object.entries(CLIENTS))("the %s client the tests run is a native executable, not a Node script", (_n, c) => {
  const magic = head(c.bin);
  expect(MAGIC.some((m) => m.equals(magic))).toBe(true);
});

test("README and CONTRIBUTING state the Node.js the newest client declares, and why Node 20 still runs the tests", () => {
  expect(engines("claude-code-next")).toBe(">=22.0.0");
  expect(engines("@anthropic-ai/claude-code")).toBe(">=18.0.0");
  for (const doc of ["README.md", "CONTRIBUTING.md"]) {
    const text = readFileSync(join(REPO_ROOT, doc), "utf8").replace(/\s+/g, " ");
    expect({ doc, says: text.includes("Node.js 22 or newer") && text.includes("EBADENGINE") }).toEqual({
      doc,
      says: true,
    });
  }
});
