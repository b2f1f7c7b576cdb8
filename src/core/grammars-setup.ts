/** The command lines of the commands that set ctx up: trust, install, uninstall, doctor (see grammars.ts). Pure data. */
import { AGENTS, agentFlags, agentOptions } from "./agents/index.ts";
import type { Grammar } from "./cli.ts";

/** The set-up commands' grammars, by command name (spread into GRAMMARS). */
export const SETUP_GRAMMARS = {
  trust: {
    synopsis: ["", "--list", "--revoke"],
    about: `Trusts the project's .ctx/config.yaml as it is now (the project found from
any subfolder), as direnv allow or mise trust do. A project file may always set
thresholds and display options; its keys that make ctx act as you (respawn.mode,
in_client, the prompts it types, send_clear, send_init, auto_accept_plans, ai_check) take
effect only once you trust the file, and only while its content is unchanged:
an edit (a pull, a checkout) makes ctx ignore them again until you rerun
ctx trust. It shows the file's path, sha256 and the keys it enables, and asks
you to type yes in your terminal; it trusts exactly the bytes it showed.
Recorded per user in \${XDG_STATE_HOME:-~/.local/state}/ctx/trust/ (the file's
real path and sha256). --list shows every trusted file and whether it changed;
--revoke forgets this project's file. Refused when a parent process is an
agent client (${AGENTS.map((a) => a.label).join(", ")}), whatever the
environment says, and without a terminal: trusting is yours to do.`,
    options: {
      list: { type: "boolean", doc: "every trusted file: trusted, changed since or missing" },
      revoke: { type: "boolean", doc: "forget the trust in this project's file" },
    },
  },
  install: {
    synopsis: [`[--project] [${agentFlags()}] [--dry-run] [--force-statusline | --keep-statusline] [--budget SIZE]`],
    about: `Merges ctx's entries into ~/.claude/settings.json (<project>/.claude/settings.json
with --project; ~/.gemini/settings.json with --gemini), with this binary's
absolute path (with --project plain \`ctx\`: no machine path in a file teams
commit) and a timeout on each:
statusLine          ctx statusline; an existing other one is chained (both show:
                    ctx statusline --chain YOURS), replaced with
                    --force-statusline, or left alone with --keep-statusline;
                    ctx uninstall puts it back
PostToolUse, PostToolUseFailure: ctx monitor, ctx track
SessionStart        ctx track, ctx resume --hook
UserPromptSubmit, Stop, StopFailure, PreCompact, SessionEnd: ctx track
Gemini CLI: AfterTool, SessionStart, BeforeAgent, AfterAgent, PreCompress,
SessionEnd (timeouts in ms, matchers over Gemini tool names).
Codex CLI (--codex: $CODEX_HOME/hooks.json, or <project>/.codex/hooks.json):
PostToolUse, SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd, and
each ctx hook trusted as Codex records it (hooks.state in $CODEX_HOME/config.toml).
Claude Code (user level): also ctx's plugin, written to
\${XDG_STATE_HOME:-~/.local/state}/ctx/install/claude-plugin/ and named in
env.CLAUDE_CODE_PLUGIN_DIRS; its mod runs on clients 2.1.286 and later.
Writes <file>.bak-<UTC stamp> first (a project's: under the user's state, not in
the project), keeps every other key and hook, refuses a
file that is not valid JSON (says line:column). Running it twice adds nothing.`,
    options: {
      project: { type: "boolean", doc: "the project's .claude/settings.json (project found from a subfolder)" },
      ...agentOptions((a) => `${a.label}'s ${a.settings.file}${a.name === "codex" ? ", its hooks trusted" : ""}`),
      "dry-run": { type: "boolean", doc: "print the result, write nothing" },
      "force-statusline": { type: "boolean", doc: "replace another statusLine (uninstall puts it back)" },
      "keep-statusline": { type: "boolean", doc: "leave another statusLine alone (ctx's is not shown)" },
      budget: { type: "string", arg: "SIZE", doc: "also set context.budget (200k, off) in the user config file" },
    },
  },
  uninstall: {
    synopsis: [`[--project] [${agentFlags()}] [--dry-run]`],
    about: `Removes every hook whose command is ctx's (statusline, monitor, track,
resume --hook) and ctx's statusLine, nothing else, after a timestamped backup;
and ctx's Claude Code plugin (its folder and its env.CLAUDE_CODE_PLUGIN_DIRS entry).
The statusLine ctx's took the place of (chained or replaced) is put back.
A settings file ctx created that is left empty is removed.`,
    options: {
      project: { type: "boolean", doc: "the project's .claude/settings.json" },
      ...agentOptions(
        (a) => `${a.label}'s ${a.settings.file}${a.name === "codex" ? " and the trust of its hooks" : ""}`,
      ),
      "dry-run": { type: "boolean", doc: "print the result, write nothing" },
    },
  },
  doctor: {
    synopsis: [`[${agentFlags()}] [--project]`],
    about: `Checks, and prints the fix for each problem:
- ctx on PATH, and the same binary in the settings;
- every ctx hook present and run once, as the client will run it (the user's,
  the project's and the project's settings.local.json count; one command
  written the same way in several files runs once), with its timeout;
- both config files: YAML errors (file:line:column), unknown keys (did you
  mean …), wrong types, values out of range, an inconsistent ladder of
  levels, and deprecated keys with the key to use; the project file's keys
  that act as you, ignored until you trust it (ctx trust);
- .ctx/.gitignore ctx's own ('*') and no state file tracked by git;
- the bridge directory (\${TMPDIR:-/tmp}) writable;
- tmux available (ctx respawn);
- which path into Claude Code is live: ctx's mod (2.1.286 and later, the plugin
  installed) or the settings hooks and status line, and why (managed
  disableAllHooks, allowManagedHooksOnly, allowManagedModsOnly included);
- the last hook errors recorded in \${XDG_STATE_HOME:-~/.local/state}/ctx/errors.log.
The project is found from any subfolder (nearest .ctx/, else the git root).
Exits 1 when a check fails.`,
    options: {
      ...agentOptions((a) => `check ${a.label}'s ${a.settings.file} and what it needs to run ctx's hooks`),
      project: { type: "boolean", doc: "the fixes name ctx install --project (every settings file still counts)" },
    },
  },
} satisfies Record<string, Grammar>;
