import { describe, expect, test } from "bun:test";
import { aiCheckPrompt, parseVerdict } from "../../../src/core/respawn/ai-check.ts";

describe("AI check helpers", () => {
  test.each([
    ["IDLE", "idle"],
    ["The session is idle.", "idle"],
    ["WORKING", "working"],
    ["idle or working?", "error"],
    ["no idea", "error"],
  ])("parseVerdict(%j) = %s", (text, verdict) => {
    expect(parseVerdict(text)).toBe(verdict as "idle");
  });
  test("the prompt carries the ANSI-stripped screen tail", () => {
    const p = aiCheckPrompt(`\x1b[31m${"x".repeat(20_000)}✻ Baked for 0s\x1b[0m`);
    expect(p).toContain("✻ Baked for 0s\n</screen>");
    expect(p).not.toContain("\x1b");
    expect(p.length).toBeLessThan(17_000);
  });
});
