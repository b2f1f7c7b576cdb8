/**
 * Regenerates the README's pictures from real captures: the real Claude Code client runs in a private
 * tmux (fake Anthropic API on 127.0.0.1, a throw-away HOME, as test/e2e does) with ctx installed by
 * `ctx install`; each screen is captured with its colours (`tmux capture-pane -e -p`) and rendered
 * as SVG by scripts/ansi-svg.ts. Writes docs/screens/<name>.ansi (the capture), <name>.svg, and
 * agent-messages.txt / summary.md (what the agent was told, the handoff summary written).
 *
 *   bun build.ts && CTX_TEST_CLIENT=newest bun scripts/screenshots.ts   # the newest pinned client
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../test/helpers/ctx.ts";
import { CLAUDE_BIN, CLIENT, CLIENTS, makeSandbox } from "../test/e2e/claude.ts";
import { allText, startFakeApi, type Turn } from "../test/e2e/fake-api.ts";
import { startTmux, stripAnsi } from "../test/e2e/tmux.ts";
import { ansiToSvg } from "./ansi-svg.ts";

/** Where the pictures go. */
export const SCREENS = join(import.meta.dir, "..", "docs", "screens");
/**
 * The pictures, by file name (without extension): the client's default model with its 1M window and
 * ctx's default 200k budget (warning, critical, then the line the user sees after /clear), and a
 * 200k model beside it (warning-200k, critical-200k).
 */
export const SHOTS = ["warning", "critical", "clear", "warning-200k", "critical-200k"] as const;
/** The 200k model of the second pass: one the newest client runs without a "retired" notice. */
export const MODEL_200K = "claude-haiku-4-5";

const COLS = 104;
const ROWS = 26;

const bash = (command: string, description: string, tokens: number): Turn => ({
  content: [{ type: "tool_use", name: "Bash", input: { command, description } }],
  usage: { input_tokens: 100, cache_read_input_tokens: tokens - 100, output_tokens: 40 },
});
const say = (text: string, tokens: number): Turn => ({
  content: [{ type: "text", text }],
  usage: { input_tokens: 100, cache_read_input_tokens: tokens - 100, output_tokens: 60 },
});

async function main(): Promise<void> {
  if (CLIENT.version !== CLIENTS.newest.version)
    throw new Error(`the README shows the newest client: run with CTX_TEST_CLIENT=newest (not ${CLIENT.version})`);
  mkdirSync(SCREENS, { recursive: true });
  await pass(null, "");
  await pass(MODEL_200K, "-200k");
  console.log(`wrote ${SHOTS.map((s) => `docs/screens/${s}.svg`).join(", ")}, agent-messages.txt, summary.md`);
}

/**
 * One session: two prompts, the first ending at 66 % of 200k tokens (WARNING), the second at 76 %
 * (CRITICAL). `model` null runs the client's default (a 1M window, so ctx's 200k budget applies);
 * the 1M pass also writes what the agent was told, the summary, and the screen after /clear.
 */
async function pass(model: string | null, suffix: string): Promise<void> {
  const api = await startFakeApi([
    bash("grep -n csv src/exporter.ts", "Find the format", 120_000),
    bash("sed -i 's/csv/tsv/' src/exporter.ts", "Switch the exporter to TSV", 132_000),
    bash("git diff --stat", "Review the change", 132_200),
    say("The exporter writes TSV now.", 132_400),
    bash("echo \"export const formats = ['csv', 'tsv'];\" >> src/exporter.ts", "Add both formats", 151_050),
    bash("git diff --stat", "Review the change", 151_250),
    say("Both formats are in. Next: the importer.", 151_450),
    say("Picking up from the summary: the importer.", 20_000),
  ]);
  const sandbox = await makeSandbox({
    apiUrl: api.url,
    projectFiles: { "src/exporter.ts": "export const format = 'csv';\n" },
    extraEnv: { PATH: `${join(CTX_BIN, "..")}:${process.env.PATH ?? "/usr/bin:/bin"}` },
  });
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["add", "-A"],
    ["commit", "-qm", "exporter"],
  ])
    Bun.spawnSync(["git", "-c", "user.name=me", "-c", "user.email=me@example.com", ...args], {
      cwd: sandbox.project,
      env: sandbox.env,
    });
  const tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, ...(model === null ? [] : ["--model", model]), "--allowedTools", "Bash"],
    env: sandbox.env,
    cwd: sandbox.project,
    window: "exporter",
    tmuxEnv: true,
    width: COLS,
    height: ROWS,
  });
  try {
    await tmux.tmux("set-option", "-g", "focus-events", "on"); // as a tmux user has it; else the client says so
    const installed = await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
    if (installed.code !== 0) throw new Error(`ctx install: ${installed.stderr}`);
    const what = model === null ? "default model, 1M window, ctx's 200k budget" : `${model}, 200k window`;
    const shot = (name: string, title: string) =>
      takeShot(tmux.capture, `${name}${suffix}`, `Claude Code ${CLIENT.version} (${what}): ${title}`, sandbox.root);
    await tmux.waitFor(/for shortcuts|❯/, 30_000);
    await tmux.sendText("Switch the exporter to TSV");
    await tmux.waitFor(/writes TSV now/, 60_000);
    await tmux.waitFor(/66%/, 20_000);
    await Bun.sleep(1500);
    await shot("warning", "ctx's WARNING at 66 %");
    await tmux.sendText("Add a test for both formats");
    await tmux.waitFor(/Next: the importer/, 60_000);
    await tmux.waitFor(/76%/, 20_000);
    await Bun.sleep(1500);
    await shot("critical", "ctx's CRITICAL at 76 %");
    if (model !== null) return;

    // What the agent was told: every hook's additional context in the requests, once each.
    const told = new Set<string>();
    for (const r of api.mainRequests())
      for (const m of allText(r).matchAll(/CONTEXT (?:WARNING|CRITICAL):[^<\n]*/g)) told.add(m[0].trim());
    writeFileSync(join(SCREENS, "agent-messages.txt"), `${[...told].join("\n")}\n`);
    // The handoff summary the CRITICAL crossing wrote (or a fresh one).
    const fin = await runCtx(["finalize"], { env: sandbox.env, cwd: sandbox.project });
    const summary = fin.stdout.trim();
    writeFileSync(join(SCREENS, "summary.md"), redact(readFileSync(summary, "utf8"), sandbox.root));
    // After /clear: the one line naming the summary the fresh session got, and ↻ 2 in the status line.
    await tmux.sendText("/clear");
    await tmux.waitFor((s) => s.replace(/\n\s+/g, " ").includes("this session continues chain"), 60_000);
    await tmux.waitFor(/↻ 2/, 30_000);
    await Bun.sleep(1500);
    await shot("clear", "after /clear, the fresh session's one-line notice");
  } finally {
    await tmux.kill().catch(() => {});
    await api.stop();
    sandbox.cleanup();
  }
}

/** Captures the pane with its colours and writes `<name>.ansi` and `<name>.svg`. */
async function takeShot(
  capture: (o: { ansi?: boolean }) => Promise<string>,
  name: string,
  title: string,
  root: string,
): Promise<void> {
  const ansi = redact(await capture({ ansi: true }), root);
  if (stripAnsi(ansi).trim() === "") throw new Error(`${name}: empty capture`);
  writeFileSync(join(SCREENS, `${name}.ansi`), ansi);
  writeFileSync(join(SCREENS, `${name}.svg`), ansiToSvg(ansi, { cols: COLS, title }));
}

/** The sandbox's temp paths replaced by a plausible home, so the committed files name no machine. */
function redact(text: string, root: string): string {
  const encoded = (p: string): string => p.replace(/[/.]/g, "-");
  return text.split(`${root}/home`).join("/home/me").split(root).join("/home/me").split(encoded(root)).join("-home-me");
}

if (import.meta.main) await main();
