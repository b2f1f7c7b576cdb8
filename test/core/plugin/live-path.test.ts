import { describe, expect, test } from "bun:test";
import { compareVersions, livePath, parseClientVersion } from "../../../src/core/plugin/live-path.ts";

const MOD_READY = { clientVersion: "2.1.332", pluginInstalled: true, userDisablesHooks: false };

describe("livePath: which of ctx's paths into Claude Code is live", () => {
  test("a client that runs mods, with the plugin installed: the mod", () => {
    expect(livePath(MOD_READY)).toMatchObject({ path: "mod" });
    expect(livePath({ ...MOD_READY, clientVersion: "2.1.286" }).path).toBe("mod");
  });
  test("a client older than 2.1.286: the settings hooks and the status line", () => {
    expect(livePath({ ...MOD_READY, clientVersion: "2.1.197" })).toEqual({
      path: "hooks",
      why: "Claude Code 2.1.197 runs no mods (2.1.286 and later do)",
    });
    expect(livePath({ ...MOD_READY, clientVersion: "2.1.285" }).path).toBe("hooks");
  });
  test("the plugin not installed, or the client unknown: the hooks path, saying why", () => {
    expect(livePath({ ...MOD_READY, pluginInstalled: false }).why).toBe("ctx's plugin is not installed");
    const unknown = livePath({ ...MOD_READY, clientVersion: undefined });
    expect(unknown.path).toBe("hooks");
    expect(unknown.why).toContain("version is unknown");
  });
  test("managed allowManagedModsOnly: the mod is off, the settings hooks still run", () => {
    const managed = { pluginConfigs: { "cc-plugin-sec-default@builtin": { options: { allowManagedModsOnly: true } } } };
    const live = livePath({ ...MOD_READY, managed });
    expect(live.path).toBe("hooks");
    expect(live.why).toContain("allowManagedModsOnly");
  });
  test("managed disableAllHooks or allowManagedHooksOnly, or the user's disableAllHooks: nothing of ctx runs", () => {
    expect(livePath({ ...MOD_READY, managed: { disableAllHooks: true } })).toMatchObject({ path: "none" });
    expect(livePath({ ...MOD_READY, managed: { allowManagedHooksOnly: true } }).why).toContain("allowManagedHooksOnly");
    expect(livePath({ ...MOD_READY, userDisablesHooks: true }).path).toBe("none");
    // Other managed keys change nothing.
    expect(livePath({ ...MOD_READY, managed: { disableAllHooks: false, permissions: {} } }).path).toBe("mod");
  });
  test("versions: parsed from claude --version, compared numerically", () => {
    expect(parseClientVersion("2.1.332 (Claude Code)\n")).toBe("2.1.332");
    expect(parseClientVersion("nonsense")).toBeUndefined();
    expect(compareVersions("2.1.1000", "2.1.286")).toBeGreaterThan(0);
    expect(compareVersions("2.1.286", "2.1.286")).toBe(0);
    expect(compareVersions("2.0.999", "2.1.0")).toBeLessThan(0);
  });
});
