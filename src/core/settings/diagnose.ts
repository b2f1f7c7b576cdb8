/**
 * The pure checks behind `ctx doctor`: given what was found on disk, say what
 * is wrong with the wiring and how to fix it.
 */
import { agent as agentAdapter } from "../agents/index.ts";
import { type Agent, ctxHooks, parseCtxCommand } from "./entries.ts";
import { isObject } from "./merge.ts";

/** One line of the doctor's report. */
export interface Check {
  /** ok, warn (works but could be better) or fail (ctx will not work as intended). */
  level: "ok" | "warn" | "fail";
  /** What was checked. */
  name: string;
  /** What was found. */
  detail: string;
  /** The command or action that fixes it (warn and fail only). */
  fix?: string;
}

/** A settings file that was read for the doctor. */
export interface FoundSettings {
  /** Its path. */
  path: string;
  /** Its parsed content, or the parse error as `line:column: message`. */
  value: Record<string, unknown> | { error: string };
}

/** Everything the hook checks need. */
export interface HookFacts {
  /** Whose settings. */
  agent: Agent;
  /** The settings files that apply, lowest precedence first (user, project, project local). */
  settings: FoundSettings[];
  /** Real path of the ctx that runs (this binary, else the one on PATH). */
  binary: string | undefined;
  /** Real path of the `ctx` a bare `ctx …` command runs (the first on PATH), or undefined. */
  onPath?: string;
  /** The install command a fix names (`ctx install`, `ctx install --project`, …). */
  installCmd?: string;
  /** Resolves a path to its real path (undefined when it does not exist). */
  realpath: (path: string) => string | undefined;
  /** Why the user's chained status-line command cannot run, or undefined when it can. */
  cannotRun?: (command: string) => string | undefined;
}

/**
 * Checks that every ctx hook runs once, with a timeout, with the expected binary, as the client
 * will run it: every settings file that applies counts, and the client runs one command written
 * the same way in several files (or groups) once.
 */
export function checkHooks(facts: HookFacts): Check[] {
  const installCmd = facts.installCmd ?? `ctx install${facts.agent === "claude" ? "" : ` --${facts.agent}`}`;
  const checks: Check[] = [];
  const valid: FoundSettings[] = [];
  for (const s of facts.settings) {
    if ("error" in s.value)
      checks.push({
        level: "fail",
        name: "settings",
        detail: `${s.path}:${s.value.error}`,
        fix: `fix the JSON in ${s.path}`,
      });
    else valid.push(s);
  }
  const found = collect(valid);
  for (const spec of ctxHooks(facts.agent)) {
    const name = `hook ${spec.event}: ctx ${spec.sub}`;
    const hits = found.filter((f) => f.event === spec.event && f.sub === spec.sub);
    if (hits.length === 0) {
      checks.push({ level: "fail", name, detail: "missing", fix: installCmd });
      continue;
    }
    checks.push(timeoutCheck(name, hits[0]!.timeout, spec.timeout, facts.agent, installCmd));
    checks.push(...binaryChecks(name, hits, facts, installCmd));
  }
  if (agentAdapter(facts.agent).statusLine) checks.push(statuslineCheck(valid, facts, installCmd));
  if (valid.some((v) => (v.value as Record<string, unknown>).disableAllHooks === true)) {
    checks.push({
      level: "fail",
      name: "disableAllHooks",
      detail: "settings disable every hook",
      fix: 'remove "disableAllHooks": true',
    });
  }
  return checks;
}

// --- internal ---

interface FoundHook {
  event: string;
  sub: string;
  binary: string;
  timeout: unknown;
  /** The command as the client compares it (whitespace collapsed). */
  command: string;
  /** The settings file it is in. */
  path: string;
}

function collect(settings: FoundSettings[]): FoundHook[] {
  const out: FoundHook[] = [];
  for (const { path, value } of settings) {
    const s = value as Record<string, unknown>;
    if (!isObject(s.hooks)) continue;
    for (const [event, groups] of Object.entries(s.hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const g of groups) {
        if (!isObject(g) || !Array.isArray(g.hooks)) continue;
        for (const h of g.hooks) {
          const p = isObject(h) ? parseCtxCommand(h.command) : undefined;
          if (p)
            out.push({
              event,
              sub: p.sub,
              binary: p.binary,
              timeout: (h as Record<string, unknown>).timeout,
              command: String(h.command).trim().replace(/\s+/g, " "),
              path,
            });
        }
      }
    }
  }
  return out;
}

function timeoutCheck(name: string, timeout: unknown, expected: number, agent: Agent, fix: string): Check {
  const unit = agentAdapter(agent).timeoutUnit === 1 ? "s" : "ms";
  if (typeof timeout !== "number") {
    const dflt = unit === "s" ? "600 s" : "60000 ms";
    return {
      level: "warn",
      name,
      detail: `no timeout: a stuck hook could block the agent for the default ${dflt}`,
      fix,
    };
  }
  if (timeout < expected / 2)
    return { level: "warn", name, detail: `timeout ${timeout} ${unit} is low (ctx uses ${expected} ${unit})`, fix };
  return { level: "ok", name, detail: `timeout ${timeout} ${unit}` };
}

function binaryChecks(name: string, hits: FoundHook[], facts: HookFacts, fix: string): Check[] {
  const checks: Check[] = [];
  // the client runs a command written the same way once, wherever it is registered
  const distinct = [...new Map(hits.map((h) => [h.command, h])).values()];
  if (distinct.length > 1)
    checks.push({
      level: "warn",
      name,
      detail: `registered as ${distinct.length} different commands (${distinct.map((h) => `${h.command} in ${h.path}`).join("; ")}): it runs ${distinct.length} times`,
      fix: `keep one: ctx uninstall (or ctx uninstall --project), then ${fix}`,
    });
  const bin = distinct[0]!.binary;
  if (!bin.includes("/")) {
    // a portable `ctx …` (ctx install --project) runs the first ctx on the client's PATH
    return facts.onPath === undefined
      ? [
          ...checks,
          {
            level: "fail",
            name,
            detail: `runs \`${bin}\`, and there is no ctx on PATH`,
            fix: "install ctx (install.sh), or put it on PATH",
          },
        ]
      : checks;
  }
  const real = facts.realpath(bin);
  if (real === undefined) return [...checks, { level: "fail", name, detail: `${bin} does not exist`, fix }];
  if (facts.binary !== undefined && real !== facts.binary) {
    checks.push({ level: "warn", name, detail: `runs ${bin}, not ${facts.binary}`, fix });
  }
  return checks;
}

function statuslineCheck(settings: FoundSettings[], facts: HookFacts, fix: string): Check {
  // the last file that sets one wins: settings.local.json over the project's over the user's
  const withLine = settings.filter((s) => (s.value as Record<string, unknown>).statusLine !== undefined);
  const winner = withLine[withLine.length - 1];
  const last = (winner?.value as Record<string, unknown> | undefined)?.statusLine;
  const command = isObject(last) ? last.command : undefined;
  if (last === undefined) return { level: "fail", name: "statusLine", detail: "missing", fix };
  const parsed = parseCtxCommand(command);
  const overridden = withLine.length > 1 && parsed?.sub !== "statusline" ? ` (set in ${winner!.path}, which wins)` : "";
  if (parsed?.sub !== "statusline") {
    return {
      level: "warn",
      name: "statusLine",
      detail: `another statusLine (${String(command)})${overridden}: the bridge file is not written, the monitor reads the transcript`,
      fix: overridden
        ? `remove the statusLine from ${winner!.path}, or chain it: ctx statusline --chain '<that command>'`
        : `${fix} (shows yours beside ctx's: ctx statusline --chain)`,
    };
  }
  const real = parsed.binary.includes("/") ? facts.realpath(parsed.binary) : facts.onPath;
  if (real === undefined)
    return {
      level: "fail",
      name: "statusLine",
      detail: parsed.binary.includes("/")
        ? `${parsed.binary} does not exist`
        : "runs `ctx`, and there is no ctx on PATH",
      fix,
    };
  const broken = parsed.chain ? facts.cannotRun?.(parsed.chain) : undefined;
  if (broken)
    return {
      level: "fail",
      name: "statusLine",
      detail: `chained with your own (${parsed.chain}), which cannot run: ${broken}; your status line is not shown`,
      fix: "fix that command (or the statusline.chain key); ctx uninstall puts your statusLine back",
    };
  const chained = parsed.chain ? `ctx statusline, chained with your own (${parsed.chain})` : String(command);
  return { level: "ok", name: "statusLine", detail: chained };
}
