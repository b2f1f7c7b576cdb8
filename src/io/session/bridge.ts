import { parseBridge, type Bridge } from "../../core/bridge.ts";
import { userLayout } from "../../core/layout.ts";
import { currentUid, readFileSafe } from "../fs/read.ts";
import { writeFileAtomic } from "../fs/write.ts";
import type { Env } from "../../core/deps.ts";

/** Writes the bridge file atomically with mode 0600 (a planted symlink is replaced, never followed). */
export function writeBridge(env: Env, bridge: Bridge): void {
  const path = userLayout(env).bridge(bridge.session_id);
  if (path) writeFileAtomic(path, `${JSON.stringify(bridge)}\n`, 0o600);
}

/** Reads a session's bridge file; ignores anything that is not a regular file owned by us. */
export function readBridge(env: Env, sessionId: string): Bridge | undefined {
  const path = userLayout(env).bridge(sessionId);
  if (!path) return undefined;
  const text = readFileSafe(path, { maxBytes: 64 * 1024, ownerUid: currentUid() });
  const bridge = text === undefined ? undefined : parseBridge(text);
  return bridge && bridge.session_id === sessionId ? bridge : undefined;
}
