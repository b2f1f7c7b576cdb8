/**
 * What `ctx install` wrote to a settings file, and where the user's own bytes from before are
 * (`userLayout(env).installRecord`, per user, out of the project), so `ctx uninstall` restores
 * them byte for byte while the file is still exactly what ctx wrote (docs/install.md).
 */
import { createHash } from "node:crypto";
import { unlinkSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Env } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import { ensureDir } from "./fs/dirs.ts";
import { readFileSafe } from "./fs/read.ts";
import { writeFileAtomic } from "./fs/write.ts";

/** The record of one settings file. */
interface InstallRecord {
  version: 1;
  settings: string;
  /** sha256 of the text ctx last wrote there. */
  written_sha256: string;
  /** The backup of the user's bytes before ctx first wrote the file; null when ctx created it. */
  backup: string | null;
  /** sha256 of those bytes (the backup is used only while it still holds them). */
  original_sha256: string | null;
}

/**
 * Records that install wrote `written` over `before` (undefined: no file) at `path`, `backup` holding
 * `before`. When `before` is what ctx itself wrote last time (a re-install), the first backup is kept.
 */
export function recordInstall(
  env: Env,
  path: string,
  before: string | undefined,
  written: string,
  backup?: string,
): void {
  const file = recordPath(env, path);
  if (!file) return;
  const prev = readRecord(env, path);
  const ours = prev !== undefined && before !== undefined && sha(before) === prev.written_sha256;
  const record: InstallRecord = {
    version: 1,
    settings: resolve(path),
    written_sha256: sha(written),
    backup: ours ? prev.backup : before === undefined ? null : (backup ?? null),
    original_sha256: ours ? prev.original_sha256 : before === undefined ? null : sha(before),
  };
  ensureDir(dirname(file));
  writeFileAtomic(file, `${JSON.stringify(record)}\n`, 0o600);
}

/**
 * The user's bytes from before ctx, when the settings file at `path` still holds exactly what ctx
 * wrote (`current`) and the backup still holds those bytes; else undefined (uninstall then removes
 * ctx's entries and keeps the rest).
 */
export function originalBytes(env: Env, path: string, current: string): { text: string; backup: string } | undefined {
  const rec = readRecord(env, path);
  if (!rec || rec.backup === null || rec.original_sha256 === null || sha(current) !== rec.written_sha256)
    return undefined;
  const text = readFileSafe(rec.backup, { maxBytes: 16 << 20 });
  return text !== undefined && sha(text) === rec.original_sha256 ? { text, backup: rec.backup } : undefined;
}

/** Forgets the record of the settings file at `path` (once uninstall is done with it). */
export function forgetInstall(env: Env, path: string): void {
  const file = recordPath(env, path);
  try {
    if (file) unlinkSync(file);
  } catch {
    // none to forget
  }
}

// --- internal ---

function readRecord(env: Env, path: string): InstallRecord | undefined {
  const file = recordPath(env, path);
  const text = file ? readFileSafe(file, { maxBytes: 64 * 1024 }) : undefined;
  try {
    const v = text === undefined ? undefined : (JSON.parse(text) as Partial<InstallRecord>);
    if (!v || v.settings !== resolve(path) || typeof v.written_sha256 !== "string") return undefined;
    const backup = typeof v.backup === "string" && v.backup.startsWith("/") ? v.backup : null;
    const original = typeof v.original_sha256 === "string" ? v.original_sha256 : null;
    return { version: 1, settings: v.settings, written_sha256: v.written_sha256, backup, original_sha256: original };
  } catch {
    return undefined;
  }
}

function recordPath(env: Env, path: string): string | undefined {
  return userLayout(env).installRecord(sha(resolve(path)).slice(0, 16));
}

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
