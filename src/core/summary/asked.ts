/**
 * A last request that asked for a version-control step the session never took: "commit, push and
 * publish", then a commit and a closing message that leaves the push to the user (docs/track-finalize.md,
 * "Open work"). Read from the request's words and the session's own successful commands. Pure.
 */
import type { Facts } from "./facts.ts";
import type { OpenWork } from "./open-work.ts";
import { oneLine } from "./ring.ts";

/** A step a request can ask for, and the commands that take it. */
interface Step {
  word: string;
  done: RegExp;
  command: string;
}

const AT = String.raw`(?:^|[\s;&|(])`;
const STEPS: Step[] = [
  {
    word: "push",
    done: new RegExp(`${AT}(?:git|jj git)\\s+(?:-C\\s+\\S+\\s+)?push\\b`),
    command: "git push",
  },
  {
    word: "commit",
    done: new RegExp(`${AT}(?:git\\s+(?:-C\\s+\\S+\\s+)?commit|jj\\s+(?:commit|describe))\\b`),
    command: "git commit",
  },
  {
    word: "merge",
    done: new RegExp(`${AT}(?:gh\\s+pr\\s+merge|git\\s+merge)\\b`),
    command: "gh pr merge",
  },
];
/** The session took part in version control after the request: it committed, staged, pushed or ran gh. */
const ENGAGED = new RegExp(`${AT}(?:git\\s+(?:-C\\s+\\S+\\s+)?(?:commit|add|push|merge)|jj\\s+\\w+|gh\\s+pr)\\b`);
/** The word said not to do it: "commit but don't push", "no merge yet", "without pushing". */
const negated = (text: string, word: string) =>
  new RegExp(`\\b(?:don'?t|do not|not|no|never|without|before)\\b[^.,;!?]{0,24}\\b${word}`, "i").test(text);

/** Notes a successful command that does version control, with the steps it took (the whole command line). */
export function noteVcs(f: Facts, command: string, line: number): void {
  if (line <= 0 || !ENGAGED.test(command)) return;
  f.vcs.push({ line, steps: STEPS.filter((s) => s.done.test(command)).map((s) => s.word) });
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
