/**
 * The pure checks behind `ctx doctor`: given what was found on disk, say what
 * is wrong with the wiring and how to fix it.
 */
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
  /** The settings files that apply (user, then project). */
  settings: FoundSettings[];
  /** Real path of the ctx that runs (this binary, else the one on PATH). */
  binary: string | undefined;
  /** Resolves a path to its real path (undefined when it does not exist). */
  realpath: (path: string) => string | undefined;
}

/** Checks that every ctx hook is registered once, with a timeout, pointing at the expected binary. */
export function checkHooks(facts: HookFacts): Check[] {
  const installCmd = facts.agent === "gemini" ? "ctx install --gemini" : "ctx install";
  const checks: Check[] = [];
  const valid: Record<string, unknown>[] = [];
  for (const s of facts.settings) {
    if ("error" in s.value)
      checks.push({
        level: "fail",
        name: "settings",
        detail: `${s.path}:${s.value.error}`,
        fix: `fix the JSON in ${s.path}`,
      });
    else valid.push(s.value);
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
    checks.push(
      ...binaryChecks(
        name,
        hits.map((h) => h.binary),
        facts,
        installCmd,
      ),
    );
  }
  if (facts.agent === "claude") checks.push(statuslineCheck(valid, facts, installCmd));
  if (valid.some((v) => v.disableAllHooks === true)) {
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
}

function collect(settings: Record<string, unknown>[]): FoundHook[] {
  const out: FoundHook[] = [];
  for (const s of settings) {
    if (!isObject(s.hooks)) continue;
    for (const [event, groups] of Object.entries(s.hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const g of groups) {
        if (!isObject(g) || !Array.isArray(g.hooks)) continue;
        for (const h of g.hooks) {
          const p = isObject(h) ? parseCtxCommand(h.command) : undefined;
          if (p) out.push({ event, sub: p.sub, binary: p.binary, timeout: (h as Record<string, unknown>).timeout });
        }
      }
    }
  }
  return out;
}

function timeoutCheck(name: string, timeout: unknown, expected: number, agent: Agent, fix: string): Check {
  const unit = agent === "claude" ? "s" : "ms";
  if (typeof timeout !== "number") {
    const dflt = agent === "claude" ? "600 s" : "60000 ms";
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

function binaryChecks(name: string, binaries: string[], facts: HookFacts, fix: string): Check[] {
  const checks: Check[] = [];
  if (binaries.length > 1)
    checks.push({
      level: "warn",
      name,
      detail: `registered ${binaries.length} times: it runs more than once`,
      fix: `ctx uninstall, then ${fix}`,
    });
  const bin = binaries[0]!;
  const real = bin.includes("/") ? facts.realpath(bin) : undefined;
  if (bin.includes("/") && real === undefined)
    return [...checks, { level: "fail", name, detail: `${bin} does not exist`, fix }];
  if (facts.binary !== undefined && real !== undefined && real !== facts.binary) {
    checks.push({ level: "warn", name, detail: `runs ${bin}, not ${facts.binary}`, fix });
  }
  return checks;
}

function statuslineCheck(settings: Record<string, unknown>[], facts: HookFacts, fix: string): Check {
  const lines = settings.map((s) => s.statusLine).filter((v) => v !== undefined);
  const last = lines[lines.length - 1];
  const command = isObject(last) ? last.command : undefined;
  if (last === undefined) return { level: "fail", name: "statusLine", detail: "missing", fix };
  const parsed = parseCtxCommand(command);
  if (parsed?.sub !== "statusline") {
    return {
      level: "warn",
      name: "statusLine",
      detail: `another statusLine (${String(command)}): the bridge file is not written, the monitor reads the transcript`,
      fix: `${fix} (shows yours beside ctx's: ctx statusline --chain)`,
    };
  }
  const real = parsed.binary.includes("/") ? facts.realpath(parsed.binary) : undefined;
  if (parsed.binary.includes("/") && real === undefined)
    return { level: "fail", name: "statusLine", detail: `${parsed.binary} does not exist`, fix };
  const chained = parsed.chain ? `ctx statusline, chained with your own (${parsed.chain})` : String(command);
  return { level: "ok", name: "statusLine", detail: chained };
}
