import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BEGIN, END, configTable } from "../scripts/config-doc.ts";
import { COMMANDS } from "../src/commands/index.ts";

const readme = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");

test("README documents every config key exactly as the schema has it", () => {
  const block = readme.slice(readme.indexOf(BEGIN) + BEGIN.length, readme.indexOf(END)).trim();
  expect(block).toBe(configTable());
});

test("README mentions every command", () => {
  for (const name of Object.keys(COMMANDS)) expect(readme).toContain(`ctx ${name}`);
});

test("README's test line is the one CI runs", () => {
  expect(readme).toContain("npm install-test");
  expect(readFileSync(join(import.meta.dir, "..", ".ci", "run"), "utf8")).toContain("npm install-test");
});
