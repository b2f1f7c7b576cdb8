/** Shared helpers for the install / uninstall / doctor command tests: an isolated home and captured output. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Deps } from "../../src/core/deps.ts";

/** A temp home with captured stdout/stderr. */
export interface Home {
  root: string;
  home: string;
  deps: Deps;
  out: () => string;
  cleanup: () => void;
}

/** Fixed clock: 2025-01-02T03:04:05Z. */
export const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);

/** A fresh isolated home (HOME, XDG_*, TMPDIR under one temp dir), cwd = `<root>/work`. */
export function makeHome(env: Record<string, string> = {}): Home {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ctx-settings-")));
  const home = join(root, "home");
  for (const d of ["home", "tmp", "work", "state"]) mkdirSync(join(root, d));
  let out = "";
  const deps: Deps = {
    env: { HOME: home, TMPDIR: join(root, "tmp"), XDG_STATE_HOME: join(root, "state"), PATH: "/usr/bin:/bin", ...env },
    now: () => NOW,
    cwd: join(root, "work"),
    stdout: (s) => void (out += s),
    stderr: (s) => void (out += s),
    readStdin: async () => ({ text: "", truncated: false }),
  };
  return { root, home, deps, out: () => out, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
