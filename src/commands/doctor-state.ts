/** `ctx doctor`'s checks of the project's state folder: the user's own, its `.gitignore` ctx's, no state tracked by git. */
import type { Env } from "../core/deps.ts";
import { stateRoot } from "../core/paths.ts";
import type { Check } from "../core/settings/diagnose.ts";
import { terminalSafe } from "../core/terminal.ts";
import { shellQuote } from "../core/shell.ts";
import { STATE_IGNORE, stateIgnoreState } from "../io/fs/dirs.ts";
import { excludedFromGit } from "../io/fs/git-exclude.ts";
import { foreignStateRoot } from "../io/fs/owner.ts";
import { git } from "../io/git/repo.ts";

/**
 * A `.ctx/.gitignore` that does not hold ctx's `*` (a committed `!*` defeats it: `git add -A`
 * stages summaries and records, command lines included), and state files git already tracks
 * (ignoring does not untrack them). `.ctx/config.yaml` may be committed, and so may the ignore file.
 */
export function stateChecks(env: Env, project: string): Check[] {
  const root = stateRoot(env, project);
  if (!root.endsWith("/.ctx")) return []; // CTX_DIR elsewhere: not in the project's tree
  const foreign = foreignStateRoot(root);
  if (foreign !== undefined)
    return [
      {
        level: "warn",
        name: "state folder",
        detail: `${terminalSafe(root)} is ${foreign}: ctx neither reads nor writes it (as git's safe.directory)`,
        fix: `if it is yours: chown -R "$(id -u)" ${terminalSafe(root)} && chmod -R go-w ${terminalSafe(root)}; else remove it or work elsewhere`,
      },
    ];
  const checks: Check[] = [];
  const ignore = `${root}/.gitignore`;
  const state = stateIgnoreState(root);
  const write = `printf '${STATE_IGNORE.replace(/\n/g, "\\n")}' > ${shellQuote(terminalSafe(ignore))}`;
  if (state === "tampered")
    checks.push({
      level: "warn",
      name: "state out of git",
      detail: `${terminalSafe(ignore)} is not ctx's (it must hold only '*'): git add -A can stage summaries and records`,
      fix: `ctx rewrites it on its next write; now: ${write}`,
    });
  else if (state === "not_a_file")
    checks.push({
      level: "warn",
      name: "state out of git",
      detail: `${terminalSafe(ignore)} is not a file (a committed directory?): ${excludedFromGit(root) ? "git ignores .ctx/ through the repository's info/exclude, which ctx wrote" : "nothing keeps ctx's state out of git"}`,
      fix: `git -C ${shellQuote(terminalSafe(project))} rm -r -q --cached --ignore-unmatch -- .ctx/.gitignore; rm -r ${shellQuote(terminalSafe(ignore))} && ${write}`,
    });
  const tracked = (git(project, ["ls-files", "-z", "--", ".ctx"]) ?? "")
    .split("\0")
    .filter((p) => p !== "" && p !== ".ctx/config.yaml" && p !== ".ctx/.gitignore");
  if (tracked.length)
    checks.push({
      level: "warn",
      name: "state out of git",
      detail: `git tracks ${tracked.length} file(s) of ctx's state: ${tracked.slice(0, 5).map(terminalSafe).join(", ")}${tracked.length > 5 ? ", …" : ""}`,
      fix: "git rm -r --cached .ctx && git add -f .ctx/config.yaml (if you share one), then commit",
    });
  if (checks.length === 0 && state === "ok")
    checks.push({ level: "ok", name: "state out of git", detail: `${terminalSafe(ignore)} holds '*'` });
  return checks;
}
