import { expect, test } from "bun:test";
import { asObject, isObject, parseObject } from "../../src/core/json.ts";

test("parseObject() gives a plain object, nothing for anything else", () => {
  expect(parseObject('{"a":1}')).toEqual({ a: 1 });
  for (const text of ["", "{", "null", "[1]", "3", '"x"', "true"]) expect(parseObject(text)).toBeUndefined();
});

test("isObject() and asObject() accept plain objects only", () => {
  expect(isObject({})).toBe(true);
  expect([null, [], 1, "x", undefined].map(isObject)).toEqual([false, false, false, false, false]);
  expect(asObject([])).toBeUndefined();
  expect(asObject({ b: 2 })).toEqual({ b: 2 });
});
