/**
 * The per-user record of the handoff summaries ctx wrote, so that only those are injected, hinted
 * at or resumed from: a summary committed to a repository, or planted in a shared `.ctx/`, is
 * not. `ctx finalize` keeps one file per summary (holding its path), named by the HMAC-SHA256 of its content
 * under a random key only this user can read (`userLayout(env).summaryKey`, `.written`). Each
 * summary's JSON twin is recorded the same way (its MAC over a `twin` prefix and its text, so a
 * twin's text never passes for a summary): a twin a tool rewrote is not carried into the chain.
 */
import { linkSync } from "node:fs";
import type { Env } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import type { SummaryTwin } from "../core/summary/chain.ts";
import { parseTwin, twinPathOf } from "../core/summary/twin.ts";
import { ensureDirUnder } from "./fs/dirs.ts";
import { currentUid, readFileSafe, withReadFile } from "./fs/read.ts";
import { unlinkQuiet } from "./fs/sys.ts";
import { createExclusive, writeFileAtomic } from "./fs/write.ts";

const KEY = /^[0-9a-f]{64}$/;

/** What was written: a summary (`.md`) or its twin (`.json`). */
export type WrittenKind = "summary" | "twin";

/**
 * Records that ctx wrote a summary (or twin) holding `text` at `path` (creating the user's key the
 * first time): the record holds the path, so `ctx prune` removes it once that file is gone or
 * holds something else (io/retention/written.ts). Throws when it cannot.
 */
export function recordWritten(env: Env, text: string, kind: WrittenKind, path: string): void {
  const user = userLayout(env);
  if (user.missing) throw new Error(user.missing); // no per-user state: never a key in the current folder
  const key = readKey(env) ?? createKey(env);
  const at = user.writtenRecord(summaryMac(key, text, kind));
  if (at === undefined) throw new Error("bad summary mac");
  ensureDirUnder(user.dir, "written");
  createExclusive(at, `${path}\n`);
}

/** True when ctx (as this user) wrote a summary (or twin) holding exactly `text`. */
export function wasWritten(env: Env, text: string, kind: WrittenKind = "summary"): boolean {
  if (userLayout(env).missing) return false;
  const key = readKey(env);
  if (key === undefined) return false;
  const at = userLayout(env).writtenRecord(summaryMac(key, text, kind));
  return at !== undefined && withReadFile(at, (_fd, st) => st.isFile && st.uid === (currentUid() ?? st.uid)) === true;
}

/**
 * The twin of the summary at `summaryPath`, parsed and cleaned (parseTwin), only when ctx wrote
 * exactly its bytes (wasWritten, kind `twin`); undefined when it is missing, not a twin, or was
 * rewritten since.
 */
export function readWrittenTwin(env: Env, summaryPath: string): SummaryTwin | undefined {
  const text = readFileSafe(twinPathOf(summaryPath), { maxBytes: 4 * 1024 * 1024 });
  if (text === undefined || !wasWritten(env, text, "twin")) return undefined;
  try {
    return parseTwin(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The name of the record `text` would have (its HMAC under the user's key), or undefined without a key. */
export function writtenMac(env: Env, text: string, kind: WrittenKind): string | undefined {
  const key = userLayout(env).missing ? undefined : readKey(env);
  return key === undefined ? undefined : summaryMac(key, text, kind);
}

/** The HMAC-SHA256 of `text` (as UTF-8) under `key`, as 64 hex digits; a twin's with a `twin` prefix. */
function summaryMac(key: string, text: string, kind: WrittenKind): string {
  const mac = new Bun.CryptoHasher("sha256", key);
  if (kind === "twin") mac.update("ctx-twin\0");
  return mac.update(text).digest("hex");
}

// --- internal ---

/** The user's key: 64 hex digits in a regular file they own, or undefined. */
function readKey(env: Env): string | undefined {
  const text = readFileSafe(userLayout(env).summaryKey, { maxBytes: 128, ownerUid: currentUid() })?.trim();
  return text !== undefined && KEY.test(text) ? text : undefined;
}

/**
 * Creates the key: written whole to a temp file, then linked into place, so a concurrent finalize
 * never reads a half-written key (the one that loses the race reads the winner's).
 */
function createKey(env: Env): string {
  const user = userLayout(env);
  ensureDirUnder(user.dir);
  const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");
  const tmp = `${user.summaryKey}.${process.pid}.tmp`;
  writeFileAtomic(tmp, `${key}\n`, 0o600);
  try {
    linkSync(tmp, user.summaryKey);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkQuiet(tmp);
  }
  const now = readKey(env);
  if (now === undefined) throw new Error(`${user.summaryKey} is not a key ctx can use`);
  return now;
}
