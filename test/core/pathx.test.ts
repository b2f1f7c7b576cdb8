import { expect, test } from "bun:test";
import * as node from "node:path";
import { basename, dirname, isAbsolute, join, normalize } from "../../src/core/pathx.ts";

test.each([
  ["/a/b/c"],
  ["/a/b/"],
  ["/a"],
  ["/"],
  ["a/b"],
  ["a"],
  ["/a//b"],
])("dirname/basename(%j) agree with node:path", (p) => {
  expect(dirname(p)).toBe(node.dirname(p));
  expect(basename(p)).toBe(node.basename(p));
});

test.each([
  [["/a", "b", "c.json"], "/a/b/c.json"],
  [["/a/", "/b"], "/a/b"],
  [["/tmp", "claude-ctx-x.json"], "/tmp/claude-ctx-x.json"],
])("join(%j) is %j", (parts, want) => expect(join(...parts)).toBe(want));

test("isAbsolute()", () => {
  expect(isAbsolute("/x")).toBe(true);
  expect(isAbsolute("x")).toBe(false);
});

test.each([
  ["/a/b/c"],
  ["/a/./b//c/"],
  ["/a/../b"],
  ["/a/b/../../.."],
  ["/.."],
  ["/"],
  ["a/../.."],
  ["a/.."],
  ["./a/b/.."],
  ["../../a"],
])("normalize(%j) agrees with node:path", (p) => {
  expect(normalize(p)).toBe(node.normalize(p).replace(/(.)\/$/, "$1"));
});
