/**
 * Trust in a project's `.ctx/config.yaml` (`ctx trust`, as `direnv allow` or `mise trust`): a
 * per-user record of the file's real path and the sha256 of the content the user trusted. Keys
 * that make ctx act as the user (config-schema.ts `asUser`) take effect only while the file still
 * has that content. Pure: the records are read and written by io/trust.ts and commands/trust.ts.
 */

/** One trust record, `<user state>/trust/<sha256 of the path>.json`. */
export interface TrustRecord {
  version: 1;
  /** The config file's real path (its directory resolved, the file itself never a link). */
  path: string;
  /** The sha256 (hex) of the file's bytes when the user trusted it. */
  sha256: string;
  /** When, as an ISO time. */
  trusted_at: string;
}

/** Whether a file is trusted: as it is now, not at all, or only with the content it had earlier. */
export type TrustState = "trusted" | "untrusted" | "changed";

const HEX64 = /^[0-9a-f]{64}$/;

/** The record in a parsed JSON document, or undefined when it is not one. */
export function parseTrustRecord(doc: unknown): TrustRecord | undefined {
  if (doc === null || typeof doc !== "object") return undefined;
  const r = doc as Record<string, unknown>;
  if (r.version !== 1 || typeof r.path !== "string" || !r.path.startsWith("/") || r.path.includes("\0"))
    return undefined;
  if (typeof r.sha256 !== "string" || !HEX64.test(r.sha256)) return undefined;
  return {
    version: 1,
    path: r.path,
    sha256: r.sha256,
    trusted_at: typeof r.trusted_at === "string" ? r.trusted_at : "",
  };
}

/** The state of a file at `path` whose bytes hash to `sha256`, given its record (if any). */
export function trustStateOf(record: TrustRecord | undefined, path: string, sha256: string): TrustState {
  if (!record || record.path !== path) return "untrusted";
  return record.sha256 === sha256 ? "trusted" : "changed";
}

/** Why a file's keys that act as the user are ignored, in one sentence, or undefined when it is trusted. */
export function untrustedReason(state: TrustState): string | undefined {
  if (state === "trusted") return undefined;
  return state === "changed"
    ? "changed since you trusted it (review it, then run ctx trust again)"
    : "not trusted (review it, then run ctx trust in the project)";
}

/** True for a file name `<64 hex>.json`: a trust record's (the sha256 of the path it is about). */
export function isTrustRecordName(name: string): boolean {
  return name.length === 69 && name.endsWith(".json") && HEX64.test(name.slice(0, 64));
}
