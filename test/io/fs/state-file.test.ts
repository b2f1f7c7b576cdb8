import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { quarantine, readState } from "../../../src/io/fs/state-file.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

const parseCount = (v: unknown) =>
  v && typeof v === "object" && typeof (v as { n?: unknown }).n === "number" ? (v as { n: number }) : undefined;

describe("readState()", () => {
  test("returns the parsed state of a good file and leaves it in place", () => {
    const p = join(t.dir, "s.json");
    writeFileSync(p, '{"n": 3}\n');
    expect(readState(p, parseCount, 1000)).toEqual({ n: 3 });
    expect(readdirSync(t.dir)).toEqual(["s.json"]);
  });

  test("reads a missing file as undefined and creates nothing", () => {
    expect(readState(join(t.dir, "none.json"), parseCount, 1000)).toBeUndefined();
    expect(readdirSync(t.dir)).toEqual([]);
  });

  test.each([
    ["truncated JSON", '{"n": '],
    ["binary garbage", "\u0000\u00ff\u0001"],
    ["valid JSON of the wrong shape", '{"n": "three"}'],
    ["an array", "[1,2]"],
  ])("moves %s aside to <file>.corrupt-<ms> with its content, and reads as missing", (_name, content) => {
    const p = join(t.dir, "s.json");
    writeFileSync(p, content);
    expect(readState(p, parseCount, 1234)).toBeUndefined();
    expect(readdirSync(t.dir)).toEqual(["s.json.corrupt-1234"]);
    expect(readFileSync(join(t.dir, "s.json.corrupt-1234"), "utf8")).toBe(content);
  });

  test("a directory in the file's place reads as missing and is not moved", () => {
    mkdirSync(join(t.dir, "s.json"));
    expect(readState(join(t.dir, "s.json"), parseCount, 1)).toBeUndefined();
    expect(readdirSync(t.dir)).toEqual(["s.json"]);
  });
});

describe("quarantine()", () => {
  test("returns the new path, or undefined when the file is already gone", () => {
    const p = join(t.dir, "x.json");
    writeFileSync(p, "bad");
    expect(quarantine(p, 5)).toBe(`${p}.corrupt-5`);
    expect(quarantine(p, 6)).toBeUndefined();
  });
});
