import { describe, expect, test } from "bun:test";
import {
  detectIndent,
  findSyntaxError,
  lineColumn,
  parseSettings,
  printSettings,
} from "../../../src/core/settings/json-text.ts";

describe("parseSettings()", () => {
  test("parses an object and keeps its key order", () => {
    const r = parseSettings('{"b":1,"a":{"y":2,"x":3}}');
    expect(r.ok).toBe(true);
    if (r.ok) expect(JSON.stringify(r.value)).toBe('{"b":1,"a":{"y":2,"x":3}}');
  });

  test("treats an empty or blank file as an empty object", () => {
    for (const text of ["", "  \n", "\uFEFF"])
      expect(parseSettings(text)).toEqual({ ok: true, value: {}, indent: "  " });
  });

  test.each([
    ['{\n  "a": 1,\n}', 3, 1, "trailing comma"],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"],
    ['{\n  // note\n  "a": 1\n}', 2, 3, "comments are not allowed in JSON"],
    ["{\n  a: 1\n}", 2, 3, "expected a property name in double quotes"],
    ['{"a": "x', 1, 9, "unterminated string"],
    ['{"a": tru}', 1, 7, 'unexpected character "t"'],
    ['{"a": 1}}', 1, 9, "unexpected text after the end of the JSON value"],
    ['{"a": [1, 2', 1, 12, "unexpected end of file"],
  ])("locates the error in %j at line %d column %d", (text, line, column, message) => {
    expect(parseSettings(text)).toEqual({ ok: false, line, column, message });
  });

  test("refuses a top level that is not an object", () => {
    for (const text of ["[]", "1", "null", '"x"'])
      expect(parseSettings(text)).toMatchObject({ ok: false, message: "the top level is not a JSON object" });
  });
});

describe("detectIndent()", () => {
  test.each([
    ['{\n    "a": 1\n}', "    "],
    ['{\n\t"a": 1\n}', "\t"],
    ['{"a": 1}', "  "],
    ['{\n "a": 1\n}', " "],
  ])("finds the indentation of %j", (text, indent) => expect(detectIndent(text)).toBe(indent));
});

describe("printSettings()", () => {
  test("prints with the indentation and a trailing newline", () => {
    expect(printSettings({ a: [1] }, "\t")).toBe('{\n\t"a": [\n\t\t1\n\t]\n}\n');
  });
});

describe("lineColumn() / findSyntaxError()", () => {
  test("counts lines and columns from 1", () => {
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn("ab", 0)).toEqual({ line: 1, column: 1 });
  });

  test("agrees with JSON.parse on valid text", () => {
    expect(findSyntaxError('{"a": [1, {"b": "\\u00e9"}], "c": -1.5e3}').message).toBe("invalid JSON");
  });
});
