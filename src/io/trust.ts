/**
 * Whether the user trusts a project's `.ctx/config.yaml` (see core/trust.ts). On the hooks'
 * path only when the file sets a key that acts as the user, and then without node:fs (realpath
 * through io/fs/sys.ts).
 */
import type { Env } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import { basename, dirname, join } from "../core/pathx.ts";
import { parseTrustRecord, trustStateOf, type TrustRecord, type TrustState } from "../core/trust.ts";
import { readJsonFile } from "./fs/read.ts";
import { sys } from "./fs/sys.ts";

/** A config file as trust sees it: its real path, the sha256 of its bytes, and the user's verdict. */
export interface TrustCheck {
  /** The file's real path: its directory resolved, its own name kept (ctx never reads it through a link). */
  path: string;
  sha256: string;
  state: TrustState;
  /** The record that decided it, when there is one. */
  record?: TrustRecord;
}

/** Checks the config file at `file` whose bytes are `bytes` against the user's trust records. */
export function checkTrust(env: Env, file: string, bytes: Uint8Array): TrustCheck {
  const path = realFilePath(file);
  const sha256 = sha256Hex(bytes);
  const record = readTrustRecord(env, path);
  return { path, sha256, state: trustStateOf(record, path, sha256), ...(record ? { record } : {}) };
}

/** The user's record for the file at real path `path`, when there is a valid one. */
function readTrustRecord(env: Env, path: string): TrustRecord | undefined {
  const at = trustRecordPath(env, path);
  const read = at === undefined ? undefined : readJsonFile<unknown>(at, { maxBytes: 64 * 1024, ownerUid: uid() });
  return read?.status === "ok" ? parseTrustRecord(read.value) : undefined;
}

/** Where the record for real path `path` lives: `<user state>/trust/<sha256 of the path>.json`. */
export function trustRecordPath(env: Env, path: string): string | undefined {
  return userLayout(env).trustRecord(sha256Hex(new TextEncoder().encode(path)));
}

/** `file` with its directory resolved (symlinks, `..`); the file's own name is kept. */
export function realFilePath(file: string): string {
  try {
    return join(sys().realpath(dirname(file)), basename(file));
  } catch {
    return file; // the directory is gone: nothing there to trust, the path still names the record
  }
}

/** The sha256 of `bytes`, as 64 hex digits. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

// --- internal ---

function uid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}
