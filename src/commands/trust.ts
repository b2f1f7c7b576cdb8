/**
 * `ctx trust [--list | --revoke]`: trusts the project's `.ctx/config.yaml` as it is now, so its
 * keys that make ctx act as the user take effect (core/trust.ts); lists or revokes that trust.
 */
import { actsAsUser } from "../core/config.ts";
import { CtxError, type Deps } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import { projectConfigPath } from "../core/paths.ts";
import { terminalSafe } from "../core/terminal.ts";
import { isTrustRecordName, parseTrustRecord, trustStateOf, type TrustRecord } from "../core/trust.ts";
import { readConfig } from "../io/config.ts";
import { ensureDirUnder } from "../io/fs/dirs.ts";
import { listDir } from "../io/fs/list-dir.ts";
import { readBytesSafe, readJsonFile } from "../io/fs/read.ts";
import { unlinkQuiet } from "../io/fs/sys.ts";
import { writeJsonAtomic } from "../io/fs/write.ts";
import { findProject } from "../io/project.ts";
import { checkTrust, realFilePath, sha256Hex, trustRecordPath } from "../io/trust.ts";
import { parseFor } from "./args.ts";

/** Entry point: trust (default), `--list` or `--revoke`. Exit 0, or 1 when there is nothing to trust. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { values } = parseFor("trust", argv);
  if (values.list && values.revoke) throw new CtxError(2, "--list and --revoke do not go together");
  if (values.list) return list(deps);
  const file = projectConfigPath(findProject(deps.env, deps.cwd));
  if (values.revoke) return revoke(file, deps);
  // an agent told to by the very file (or a summary) must not be able to trust it for the user
  const agent = AGENT_VARS.find((v) => deps.env[v]);
  if (agent)
    throw new CtxError(
      1,
      `ctx trust is yours to run, not an agent's: ${agent} is set, so an agent's shell ran it`,
      "read the file, then run ctx trust in your own terminal",
    );
  return trust(file, deps);
}

/** Set in the shells the agents run commands in (Claude Code, Gemini CLI). */
const AGENT_VARS = ["CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "GEMINI_CLI"];

// --- internal ---

/** How long a shown value may be before it is cut. */
const SHOWN_MAX = 160;

function trust(file: string, deps: Deps): number {
  const bytes = readBytesSafe(file, { maxBytes: 1024 * 1024 });
  if (bytes === undefined)
    throw new CtxError(
      1,
      `no config file to trust: ${terminalSafe(file)}`,
      "ctx trust trusts the project's .ctx/config.yaml (a regular file, not a link); run it in the project",
    );
  const report = readConfig(deps.env, findProject(deps.env, deps.cwd));
  const parsed = report.files.find((f) => f.origin === "project");
  if (parsed?.error) throw new CtxError(1, terminalSafe(parsed.error), "fix the file, then run ctx trust again");
  const check = checkTrust(deps.env, file, bytes);
  const at = trustRecordPath(deps.env, check.path);
  if (at === undefined) throw new CtxError(1, `cannot name a trust record for ${terminalSafe(check.path)}`);
  ensureDirUnder(userLayout(deps.env).dir, "trust");
  const record: TrustRecord = {
    version: 1,
    path: check.path,
    sha256: check.sha256,
    trusted_at: new Date(deps.now()).toISOString(),
  };
  writeJsonAtomic(at, record, 0o600);
  const keys = Object.entries(parsed?.layer.values ?? {}).filter(([key]) => actsAsUser(key));
  const lines = [`trusted ${terminalSafe(check.path)} (sha256 ${check.sha256})`];
  if (keys.length === 0) lines.push("it sets no key that acts as you; an edit to it ends this trust");
  else {
    lines.push("these keys now act as you (until the file changes):");
    for (const [key, value] of keys) lines.push(`  ${key} = ${shown(value)}`);
  }
  deps.stdout(`${lines.join("\n")}\n`);
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
