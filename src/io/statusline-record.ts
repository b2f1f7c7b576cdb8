/**
 * The statusLine ctx's took the place of in a settings file (chained or replaced by `ctx install`),
 * kept per user and out of the project (`userLayout(env).statuslineRecord`), so `ctx uninstall`
 * puts exactly that back.
 */
import { unlinkSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Env } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import { ensureDir } from "./fs/dirs.ts";
import { readFileSafe } from "./fs/read.ts";
import { writeFileAtomic } from "./fs/write.ts";

/**
 * Records the statusLine ctx's took the place of in the settings file at `path` (per user, out of
 * the project: `userLayout(env).statuslineRecord`), so uninstall puts exactly that back.
 */
export function rememberStatusline(env: Env, path: string, previous: Record<string, unknown>): void {
  const file = statuslineRecordPath(env, path);
  if (!file) return;
  ensureDir(dirname(file));
  writeFileAtomic(file, `${JSON.stringify({ version: 1, settings: resolve(path), statusLine: previous })}\n`, 0o600);
}

/** The statusLine recorded for the settings file at `path`, or undefined. */
export function rememberedStatusline(env: Env, path: string): Record<string, unknown> | undefined {
  const file = statuslineRecordPath(env, path);
  const text = file ? readFileSafe(file, { maxBytes: 1024 * 1024 }) : undefined;
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as { settings?: unknown; statusLine?: unknown };
    const ok = v && v.settings === resolve(path) && typeof v.statusLine === "object" && v.statusLine !== null;
    return ok && !Array.isArray(v.statusLine) ? (v.statusLine as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets the record of the settings file at `path` (once uninstall has put it back). */
export function forgetStatusline(env: Env, path: string): void {
  const file = statuslineRecordPath(env, path);
  try {
    if (file) unlinkSync(file);
  } catch {
    // none to forget
  }
}

function statuslineRecordPath(env: Env, path: string): string | undefined {
  const key = new Bun.CryptoHasher("sha256").update(resolve(path)).digest("hex").slice(0, 16);
  return userLayout(env).statuslineRecord(key);
}
