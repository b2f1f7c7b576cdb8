import { describe, expect, test } from "bun:test";
import { geminiChecks } from "../../../src/core/agents/gemini-checks.ts";

const base = { env: { GEMINI_API_KEY: "k" }, project: "/p", trusted: false };
const auth = { security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } } };
const levels = (checks: ReturnType<typeof geminiChecks>) => checks.map((c) => `${c.name}: ${c.level}`);

describe("geminiChecks()", () => {
  test("the headless user settings pass", () => {
    expect(levels(geminiChecks({ ...base, settings: [auth] }))).toEqual([
      "Gemini CLI hooks: ok",
      "Gemini CLI auth: ok",
      "Gemini CLI folder trust: ok",
    ]);
  });
  test("no auth method fails (gemini -p exits 41); an API key auth without the key warns", () => {
    const none = geminiChecks({ ...base, settings: [{}] });
    expect(none[1]).toMatchObject({ level: "fail", name: "Gemini CLI auth" });
    expect(none[1]!.detail).toContain("exits 41");
    expect(geminiChecks({ ...base, env: {}, settings: [auth] })[1]!.level).toBe("warn");
    expect(
      geminiChecks({ ...base, settings: [{ security: { auth: { selectedType: "oauth-personal" } } }] })[1],
    ).toMatchObject({ level: "ok", detail: "oauth-personal" });
  });
  test("hooks turned off fail; project settings override user settings", () => {
    const off = geminiChecks({ ...base, settings: [auth, { hooksConfig: { enabled: false } }] });
    expect(off[0]!.level).toBe("fail");
    const back = geminiChecks({
      ...base,
      settings: [{ hooksConfig: { enabled: false } }, { hooksConfig: { enabled: true } }],
    });
    expect(back[0]!.level).toBe("ok");
  });
  test("an untrusted project warns (exit 55 headless) unless trust is off, the env trusts it, or trustedFolders does", () => {
    const withTrust = { security: { auth: { selectedType: "gemini-api-key" } } };
    const untrusted = geminiChecks({ ...base, settings: [withTrust] })[2]!;
    expect(untrusted.level).toBe("warn");
    expect(untrusted.detail).toContain("exits 55");
    expect(geminiChecks({ ...base, settings: [withTrust], trusted: true })[2]!.level).toBe("ok");
    const env = { ...base.env, GEMINI_CLI_TRUST_WORKSPACE: "true" };
    expect(geminiChecks({ ...base, env, settings: [withTrust] })[2]!.level).toBe("ok");
  });
});
