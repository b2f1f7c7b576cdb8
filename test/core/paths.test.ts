import { expect, test } from "bun:test";
import { projectDir, sessionFile, stateRoot, tmpDir, userConfigPath } from "../../src/core/paths.ts";
import { isValidSessionId } from "../../src/core/session-id.ts";

test.each([
  ["abc-123_DEF", true],
  ["0b9e0a3c-5f1e-4c7a-9a54-3c2d1e0f9a8b", true],
  ["a".repeat(128), true],
  ["a".repeat(129), false],
  ["", false],
  ["../etc/passwd", false],
  ["a/b", false],
  ["a.b", false],
  ["a\0b", false],
  [" ab", false],
  [42, false],
  [null, false],
])("isValidSessionId(%j) is %s", (id, want) => {
  expect(isValidSessionId(id)).toBe(want);
});

test("tmpDir() is TMPDIR without a trailing slash, else /tmp", () => {
  expect(tmpDir({ TMPDIR: "/" })).toBe("/");
});

test("projectDir() prefers CLAUDE_PROJECT_DIR, then the hook cwd, then ours", () => {
  expect(projectDir({ CLAUDE_PROJECT_DIR: "/p" }, "/c", "/w")).toBe("/p");
  expect(projectDir({}, "/c", "/w")).toBe("/c");
  expect(projectDir({}, "relative", "/w")).toBe("/w");
  expect(projectDir({}, 5, "/w")).toBe("/w");
});

test("stateRoot() is CTX_DIR or <project>/.ctx", () => {
  expect(stateRoot({ CTX_DIR: "/s" }, "/p")).toBe("/s");
  expect(stateRoot({}, "/p")).toBe("/p/.ctx");
});

test("user paths follow XDG, else HOME", () => {
  expect(userConfigPath({ XDG_CONFIG_HOME: "/xc" })).toBe("/xc/ctx/config.yaml");
  expect(userConfigPath({ HOME: "/h" })).toBe("/h/.config/ctx/config.yaml");
});

test("sessionFile() refuses unsafe ids", () => {
  expect(sessionFile("/d", "s1")).toBe("/d/s1.json");
  expect(sessionFile("/d", "../s1")).toBeUndefined();
  expect(sessionFile("/d", "s1", ".jsonl")).toBe("/d/s1.jsonl");
});
