/**
 * Which agent client a process is, from what /proc (or ps) shows of it: its short name and the
 * first words of its command line. `ctx trust` refuses to run under any of them, whatever the
 * environment says (an agent's shell can unset CLAUDECODE or run `env -i`). Pure.
 */

/** The clients recognised, by the name their executable or launcher script has. */
const NAMES: ReadonlyArray<{ client: string; name: RegExp; path: RegExp }> = [
  {
    client: "Claude Code",
    name: /^claude(\.exe)?$/i,
    path: /claude-code[^/]*\/(cli\.m?js|bin\/claude(\.exe)?)$/,
  },
  { client: "Codex CLI", name: /^codex(\.exe)?$/i, path: /@openai\/codex[^/]*\/|\/codex-(linux|darwin|win32)-[^/]*\// },
  { client: "Gemini CLI", name: /^gemini(\.exe)?$/i, path: /@google\/gemini-cli[^/]*\/|\/gemini-cli\/(bundle|dist)\// },
  {
    client: "OpenCode",
    name: /^opencode(\.exe)?$/i,
    path: /opencode-ai[^/]*\/|\/opencode-(linux|darwin|windows)-[^/]*\//,
  },
];

/**
 * The client a process is (`Claude Code`, `Codex CLI`, `Gemini CLI`, `OpenCode`), or undefined.
 * `comm` is its short name (`/proc/<pid>/comm`, at most 15 bytes), `argv` its command line: the
 * executable, or the interpreter (node, bun), its flags and the script it runs.
 */
export function agentClientOf(comm: string, argv: readonly string[]): string | undefined {
  // the executable, and the script an interpreter runs (after its own flags: Gemini CLI relaunches
  // itself as `node --max-old-space-size=… gemini.js`)
  const interpreter = /^(node|nodejs|bun|deno)(\.exe)?$/.test(argv[0]?.split("/").pop() ?? "");
  const script = interpreter ? argv.slice(1).find((w) => !w.startsWith("-")) : argv[1];
  const words = [argv[0] ?? "", script ?? ""];
  for (const n of NAMES) {
    if (n.name.test(comm)) return n.client;
    if (words.some((w) => n.name.test(w.split("/").pop() ?? "") || n.path.test(w))) return n.client;
  }
  return undefined;
}
