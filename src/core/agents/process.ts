/**
 * Which agent client a process is, from what /proc (or ps) shows of it: its short name and the
 * first words of its command line, matched against each adapter's `process` rule. `ctx trust`
 * refuses to run under any of them, whatever the environment says (an agent's shell can unset
 * its client's variables or run `env -i`). Pure.
 */
import { AGENTS } from "./index.ts";

/**
 * The client a process is (its adapter's `label`), or undefined.
 * `comm` is its short name (`/proc/<pid>/comm`, at most 15 bytes), `argv` its command line: the
 * executable, or the interpreter (node, bun), its flags and the script it runs.
 */
export function agentClientOf(comm: string, argv: readonly string[]): string | undefined {
  // the executable, and the script an interpreter runs (after its own flags: a client may relaunch
  // itself as `node --max-old-space-size=… <script>.js`)
  const interpreter = /^(node|nodejs|bun|deno)(\.exe)?$/.test(argv[0]?.split("/").pop() ?? "");
  const script = interpreter ? argv.slice(1).find((w) => !w.startsWith("-")) : argv[1];
  const words = [argv[0] ?? "", script ?? ""];
  for (const a of AGENTS) {
    const n = a.process;
    if (n.name.test(comm)) return a.label;
    if (words.some((w) => n.name.test(w.split("/").pop() ?? "") || n.path.test(w))) return a.label;
  }
  return undefined;
}

/** The first variable an agent client sets in its shells (its adapter's `process.env`) that `env` has set. */
export function agentVariable(env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const { process: rule } of AGENTS) for (const v of rule.env ?? []) if (env[v]) return v;
  return undefined;
}
