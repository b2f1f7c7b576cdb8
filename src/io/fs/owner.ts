/**
 * Whose a directory is, by git's `safe.directory` rule (CVE-2022-24765): ctx takes a directory as
 * the user's own only when the user owns it and no one else can write into it (a world-writable
 * one only with the sticky bit). Project discovery never crosses into another's directory, and a
 * project's `.ctx/` that is not the user's is neither read nor written.
 */
import { basename } from "../../core/pathx.ts";
import { currentUid } from "./read.ts";
import { sys, type Stat } from "./sys.ts";

/** Why a directory with this owner and these permission bits is not the user's to use, or undefined when it is. */
export function foreignReason(st: Pick<Stat, "uid" | "perm">, uid = currentUid()): string | undefined {
  if (uid === undefined) return undefined; // a platform without uids
  if (st.uid !== uid) return `owned by another user (uid ${st.uid})`;
  if ((st.perm & 0o002) !== 0 && (st.perm & 0o1000) === 0) return "writable by everyone";
  return undefined;
}

/**
 * Why the project state root `root` (a `…/.ctx` directory, not followed if a link) is not the
 * user's, or undefined when it is, is missing, or is not a project's `.ctx` (a `CTX_DIR` the
 * user's environment names is theirs).
 */
export function foreignStateRoot(root: string, st?: Pick<Stat, "uid" | "perm">): string | undefined {
  if (basename(root) !== ".ctx") return undefined;
  try {
    return foreignReason(st ?? sys().lstat(root));
  } catch {
    return undefined; // missing: nothing there to use
  }
}
