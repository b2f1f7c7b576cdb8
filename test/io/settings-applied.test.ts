import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nativeAutoContinue } from "../../src/io/settings-applied.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => ({ t, env, project } = projectSandbox()));
afterEach(() => t.cleanup());

test("autoContinueAtUsageLimit: off by default, on from the user's settings, the project's file winning", () => {
  expect(nativeAutoContinue(env, project)).toBe(false);
  mkdirSync(join(env.HOME!, ".claude"), { recursive: true });
  writeFileSync(join(env.HOME!, ".claude", "settings.json"), JSON.stringify({ autoContinueAtUsageLimit: true }));
  expect(nativeAutoContinue(env, project)).toBe(true);
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ autoContinueAtUsageLimit: false }));
  expect(nativeAutoContinue(env, project)).toBe(false);
});
