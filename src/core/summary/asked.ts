/**
 * A last request that asked for a version-control step the session never took: "commit, push and
 * publish", then a commit and a closing message that leaves the push to the user (docs/track-finalize.md,
 * "Open work"). Read from the request's words and the session's own successful commands. Pure.
 */
import type { Facts } from "./facts.ts";
import type { OpenWork } from "./open-work.ts";
import { achievedIntents, type Intent } from "./intent.ts";
import { oneLine } from "./ring.ts";

/** A step a request can ask for, the command the summary names for it, and whether an intent takes it. */
interface Step {
  word: string;
  command: string;
  takes: (it: Intent) => boolean;
}

/** The intent's subcommand after its head: `jj git push` is `jj git` @ push, `gh pr merge 6` is `gh pr` @ merge. */
const sub = (it: Intent, head: string, word: string) => it.head === head && it.targets.includes(word);
const STEPS: Step[] = [
  { word: "push", command: "git push", takes: (it) => it.head === "git push" || sub(it, "jj git", "push") },
  {
    word: "commit",
    command: "git commit",
    takes: (it) => it.head === "git commit" || it.head === "jj commit" || it.head === "jj describe",
  },
  { word: "merge", command: "gh pr merge", takes: (it) => it.head === "git merge" || sub(it, "gh pr", "merge") },
];
/** Version control: a commit, a stage, a push or a merge with git, any jj command, a gh pull request. */
const ENGAGED = (it: Intent) => /^(?:git (?:commit|add|push|merge)|jj \w+|gh pr)$/.test(it.head);
/** The word said not to do it: "commit but don't push", "no merge yet", "without pushing". */
const negated = (text: string, word: string) =>
  new RegExp(`\\b(?:don'?t|do not|not|no|never|without|before)\\b[^.,;!?]{0,24}\\b${word}`, "i").test(text);

/**
 * Notes a successful command that does version control, with the steps it took: read as intent.ts
 * reads command lines (git's global flags such as `-c user.name=…`, `&&` chains, `bash -c`).
 */
export function noteVcs(f: Facts, command: string, line: number): void {
  if (line <= 0) return;
  const intents = achievedIntents(command);
  if (!intents.some(ENGAGED)) return;
  f.vcs.push({ line, steps: STEPS.filter((s) => intents.some(s.takes)).map((s) => s.word) });
  if (f.vcs.length > 40) f.vcs.shift();
}

/**
 * The last request's version-control step that no successful command took after it, as open work,
 * when the session went on to do version control (so the word was about it): none when the turn was
 * cut off (the unanswered request says it) or the step ran.
 */
export function askedNotDone(f: Facts): OpenWork | null {
  const asked = f.latestLines.at(-1) ?? 0;
  const request = f.latestReal;
  if (!request || asked <= 0) return null;
  const after = f.vcs.filter((c) => c.line > asked);
  if (after.length === 0) return null;
  const missing = STEPS.filter(
    (s) => verbIn(request, s.word) && !negated(request, s.word) && !after.some((c) => c.steps.includes(s.word)),
  );
  if (missing.length === 0) return null;
  const words = missing.map((s) => s.word).join(" and ");
  return {
    text: `the last request is not finished: it asked to ${words}, and no \`${missing.map((s) => s.command).join("`, `")}\` ran after it: "${oneLine(request, 300)}"`,
    evidence: [asked],
  };
}

/** The word as a verb of the request: "commit and push please", "commit,push,publish", never "merge issues". */
function verbIn(text: string, word: string): boolean {
  return new RegExp(
    `(?:^|[\\s,;&/])${word}(?=\\s+(?:it|this|that|them|the|to|and|now|please|everything|all|changes?|branch|pr|main|origin|upstream)\\b|\\s*[,.!;:&]|\\s*$)`,
    "i",
  ).test(text);
}
