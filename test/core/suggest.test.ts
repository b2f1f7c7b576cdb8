import { describe, expect, test } from "bun:test";
import { editDistance, nearest } from "../../src/core/suggest.ts";

describe("editDistance", () => {
  test.each([
    ["status", "status", 0],
    ["stauts", "status", 1], // a transposition is one edit
    ["statsu", "status", 1],
    ["stat", "status", 2],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
  ])("%s → %s: %d", (a, b, d) => expect(editDistance(a, b)).toBe(d));
});

describe("nearest", () => {
  const commands = ["install", "status", "resume", "respawn", "doctor", "config", "uninstall", "finalize"];
  test("a typo finds the command", () => {
    expect(nearest("stauts", commands)).toBe("status");
    expect(nearest("docter", commands)).toBe("doctor");
    expect(nearest("STATUS", commands)).toBe("status");
    expect(nearest("unistall", commands)).toBe("uninstall");
  });
  test("a prefix of three letters or more finds the command", () => {
    expect(nearest("fin", commands)).toBe("finalize");
  });
  test("nothing near: no guess", () => {
    expect(nearest("frobnicate", commands)).toBeUndefined();
    expect(nearest("x", commands)).toBeUndefined();
    expect(nearest("json", [])).toBeUndefined();
  });
});
