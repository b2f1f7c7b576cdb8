/**
 * `ctx trust [--list | --revoke]`: trusts the project's `.ctx/config.yaml` as it is now, so its
 * keys that make ctx act as the user take effect (core/trust.ts); lists or revokes that trust.
 * Trusting needs a person: no agent client among the ancestors, a terminal, and "yes" typed to
 * the path, hash and keys shown.
 */
import { agentVariable } from "../core/agents/process.ts";
import { actsAsUser } from "../core/config.ts";
import { CtxError, type Deps } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import { projectConfigPath } from "../core/paths.ts";
import { terminalSafe } from "../core/terminal.ts";
import { isTrustRecordName, parseTrustRecord, trustStateOf, type TrustRecord } from "../core/trust.ts";
import { parseConfigFile } from "../io/config.ts";
import { ensureDirUnder } from "../io/fs/dirs.ts";
import { listDir } from "../io/fs/list-dir.ts";
import { sweepStaleTemps } from "../io/fs/sweep.ts";
import { readBytesSafe, readJsonFile } from "../io/fs/read.ts";
import { unlinkQuiet } from "../io/fs/sys.ts";
import { writeJsonAtomic } from "../io/fs/write.ts";
import { findProject } from "../io/project.ts";
import { agentAncestor } from "../io/process/agent-ancestor.ts";
import { interactive, readLine } from "../io/process/terminal.ts";
import { realFilePath, sha256Hex, trustRecordPath } from "../io/trust.ts";
import { parseFor } from "./args.ts";

/** Entry point: trust (default), `--list` or `--revoke`. Exit 0, or 1 when nothing was trusted. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { values } = parseFor("trust", argv);
  if (values.list && values.revoke) throw new CtxError(2, "--list and --revoke do not go together");
  if (values.list) return list(deps);
  const file = projectConfigPath(findProject(deps.env, deps.cwd));
  if (values.revoke) return revoke(file, deps);
  refuseAgents(deps);
  return trust(file, deps);
}

// --- internal ---

/** How long a shown value may be before it is cut. */
const SHOWN_MAX = 160;

/**
 * An agent told to by the very file (or a summary) must not trust it for the user: refused when an
 * agent's variable is set, and whatever the environment says when any ancestor process is an agent
 * client (an agent's shell can unset the variables, or run `env -i` or `script`). A speed bump,
 * not a boundary: see docs/install.md, "What trust protects against".
 */
function refuseAgents(deps: Deps): void {
  const variable = agentVariable(deps.env); // set in the shells an agent runs commands in
  const ancestor = agentAncestor();
  const by =
    ancestor === "unknown"
      ? "its parent processes cannot be read, so an agent's shell may have run it"
      : ancestor
        ? `it runs under ${ancestor.client} (pid ${ancestor.pid}): an agent's shell ran it`
        : variable
          ? `${variable} is set, so an agent's shell ran it`
          : undefined;
  if (by)
    throw new CtxError(
      1,
      `ctx trust is yours to run, not an agent's: ${by}`,
      "read the file, then run ctx trust in your own terminal",
    );
}

/**
 * Reads the file once, shows its path, sha256 and the keys that would act as the user, asks for
 * "yes" on the terminal, and trusts exactly the bytes it showed (a file changed meanwhile is
 * "changed", not trusted).
 */
function trust(file: string, deps: Deps): number {
  if (!interactive())
    throw new CtxError(
      1,
      "ctx trust needs your terminal: it shows the file's keys and hash and asks you to confirm",
      "run it yourself in a terminal (not through a pipe or a script)",
    );
  const bytes = readBytesSafe(file, { maxBytes: 1024 * 1024 });
  if (bytes === undefined)
    throw new CtxError(
      1,
      `no config file to trust: ${terminalSafe(file)}`,
      "ctx trust trusts the project's .ctx/config.yaml (a regular file, not a link); run it in the project",
    );
  const parsed = parseConfigFile(deps.env, file, "project", bytes);
  if (parsed.error) throw new CtxError(1, terminalSafe(parsed.error), "fix the file, then run ctx trust again");
  const path = realFilePath(file);
  const sha256 = sha256Hex(bytes);
  const keys = Object.entries(parsed.layer.values).filter(([key]) => actsAsUser(key));
  const lines = [`${terminalSafe(path)}`, `  sha256 ${sha256}`];
  if (keys.length === 0) lines.push("  it sets no key that acts as you; an edit to it ends this trust");
  else {
    lines.push("  these keys would act as you (until the file changes):");
    for (const [key, value] of keys) lines.push(`    ${key} = ${shown(value)}`);
  }
  deps.stdout(`${lines.join("\n")}\nTrust exactly this content? Type yes to confirm: `);
  const answer = readLine();
  if (answer?.trim() !== "yes") {
    deps.stdout(`${answer === undefined ? "\n" : ""}not trusted: nothing was recorded\n`);
    return 1;
  }
  const at = trustRecordPath(deps.env, path);
  if (at === undefined) throw new CtxError(1, `cannot name a trust record for ${terminalSafe(path)}`);
  ensureDirUnder(userLayout(deps.env).dir, "trust");
  sweepStaleTemps(userLayout(deps.env).trust, deps.now()); // left by a ctx trust killed while it wrote
  const record: TrustRecord = { version: 1, path, sha256, trusted_at: new Date(deps.now()).toISOString() };
  writeJsonAtomic(at, record, 0o600);
  deps.stdout(`trusted ${terminalSafe(path)} (sha256 ${sha256})\n`);
  return 0;
}

function revoke(file: string, deps: Deps): number {
  const path = realFilePath(file);
  const at = trustRecordPath(deps.env, path);
  const had = at !== undefined && readJsonFile(at).status !== "missing";
  if (at !== undefined) unlinkQuiet(at);
  deps.stdout(had ? `revoked: ${terminalSafe(path)} is no longer trusted\n` : `not trusted: ${terminalSafe(path)}\n`);
  return 0;
}

function list(deps: Deps): number {
  const dir = userLayout(deps.env).trust;
  const rows: string[] = [];
  for (const name of listDir(dir).filter(isTrustRecordName).sort()) {
    const read = readJsonFile<unknown>(`${dir}/${name}`, { maxBytes: 64 * 1024 });
    const record = read.status === "ok" ? parseTrustRecord(read.value) : undefined;
    if (!record) continue;
    const bytes = readBytesSafe(record.path, { maxBytes: 1024 * 1024 });
    const state = bytes === undefined ? "missing" : trustStateOf(record, record.path, sha256Hex(bytes));
    rows.push(`${state.padEnd(8)}  ${terminalSafe(record.trusted_at)}  ${terminalSafe(record.path)}`);
  }
  deps.stdout(rows.length ? `${rows.join("\n")}\n` : "no trusted project config\n");
  return 0;
}

function shown(value: unknown): string {
  const text = terminalSafe(JSON.stringify(value) ?? String(value));
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
}
