import { expect, test } from "bun:test";
import { setYamlKey } from "../../src/core/config-edit.ts";
import { flatten } from "../../src/core/config.ts";

const value = (text: string) => flatten(Bun.YAML.parse(text))["context.budget"];

test("an empty file gets a dotted line", () => {
  expect(setYamlKey("", "context.budget", "200k")).toBe("context.budget: 200k\n");
});

test("a dotted line is rewritten in place, other lines kept", () => {
  const out = setYamlKey("levels.warning: 60\ncontext.budget: 1M\n# mine\n", "context.budget", "200k");
  expect(out).toBe("levels.warning: 60\ncontext.budget: 200k\n# mine\n");
});

test("a nested section gets the key inside it, with its indentation", () => {
  const out = setYamlKey("context:\n    window_size: 500000\nlevels:\n  warning: 60\n", "context.budget", "300k");
  expect(out).toBe("context:\n    budget: 300k\n    window_size: 500000\nlevels:\n  warning: 60\n");
  expect(value(out)).toBe("300k");
});

test("a nested key is rewritten, not doubled", () => {
  const out = setYamlKey("context:\n  budget: 1M\n  window_size: 500000\n", "context.budget", "off");
  expect(out).toBe("context:\n  budget: off\n  window_size: 500000\n");
  expect(value(out)).toBe("off");
});
