import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { layout } from "../../../src/core/layout.ts";
import { listRecords, readRecord } from "../../../src/io/respawn/store.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-respawn-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("records", () => {
  test("listRecords and readRecord see the supervisors of a root", () => {
    mkdirSync(join(dir, "state", "respawn"), { recursive: true });
    writeFileSync(layout(dir).respawnRecord("a"), JSON.stringify({ version: 1, name: "a", phase: "idle" }));
    writeFileSync(join(dir, "state", "respawn", "a.log"), "");
    expect(listRecords(dir)).toEqual(["a"]);
    expect(readRecord(dir, "a")).toMatchObject({ name: "a", phase: "idle" });
    expect(readRecord(dir, "b")).toBeUndefined();
  });
});
