/**
 * Regenerates the README's pictures from real captures: the real Claude Code client runs in a private
 * tmux (fake Anthropic API on 127.0.0.1, a throw-away HOME, as test/e2e does) with ctx installed by
 * `ctx install`; each screen is captured with its colours (`tmux capture-pane -e -p`) and rendered
 * as SVG by scripts/ansi-svg.ts. Writes docs/screens/<name>.ansi (the capture), <name>.svg, and
 * agent-messages.txt / summary.md (what the agent was told, the handoff summary written).
 *
 *   bun build.ts && bun scripts/screenshots.ts            # CTX_TEST_CLIENT=newest for 2.1.332
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../test/helpers/ctx.ts";
import { CLAUDE_BIN, CLIENT, makeSandbox, TEST_MODEL } from "../test/e2e/claude.ts";
import { contentText, startFakeApi, type Turn } from "../test/e2e/fake-api.ts";
import { startTmux, stripAnsi } from "../test/e2e/tmux.ts";
import { ansiToSvg } from "./ansi-svg.ts";

/** Where the pictures go. */
export const SCREENS = join(import.meta.dir, "..", "docs", "screens");
/** The pictures the README shows, by file name (without extension). */
export const SHOTS = ["warning", "critical"] as const;

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
  // Two prompts: the first ends at 66 % (WARNING), the second at 76 % (CRITICAL; 151,050 tokens is
  // the client footer's 83 %, PROTOCOL.md's example).
  const api = await startFakeApi([
    bash("grep -n csv src/exporter.ts", "Find the format", 120_000),
    bash("sed -i 's/csv/tsv/' src/exporter.ts", "Switch the exporter to TSV", 132_000),
    bash("git diff --stat", "Review the change", 132_200),
    say("The exporter writes TSV now.", 132_400),
    bash("echo \"export const formats = ['csv', 'tsv'];\" >> src/exporter.ts", "Add both formats", 151_050),
    bash("git diff --stat", "Review the change", 151_250),
    say("Both formats are in. Next: the importer.", 151_450),
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
    command: [CLAUDE_BIN, "--model", TEST_MODEL, "--allowedTools", "Bash"],
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
    mkdirSync(SCREENS, { recursive: true });
    await tmux.waitFor(/for shortcuts|❯/, 30_000);
    await tmux.sendText("Switch the exporter to TSV");
    await tmux.waitFor(/writes TSV now/, 60_000);
    await tmux.waitFor(/66%/, 20_000);
    await Bun.sleep(1500);
    const shot = (name: string, title: string) => takeShot(tmux.capture, name, title, sandbox.root);
    await shot("warning", `Claude Code ${CLIENT.version}: ctx's WARNING at 66 %`);
    await tmux.sendText("Add a test for both formats");
    await tmux.waitFor(/Next: the importer/, 60_000);
    await tmux.waitFor(/76%/, 20_000);
    await Bun.sleep(1500);
    await shot("critical", `Claude Code ${CLIENT.version}: ctx's CRITICAL at 76 %`);

    // What the agent was told: every hook's additional context in the requests, once each.
    const told = new Set<string>();
    for (const r of api.mainRequests())
      for (const m of allUserText(r).matchAll(/CONTEXT (?:WARNING|CRITICAL):[^<\n]*/g)) told.add(m[0].trim());
    writeFileSync(join(SCREENS, "agent-messages.txt"), `${[...told].join("\n")}\n`);
    // The handoff summary the CRITICAL crossing wrote (or a fresh one).
    const fin = await runCtx(["finalize"], { env: sandbox.env, cwd: sandbox.project });
    const summary = fin.stdout.trim();
    writeFileSync(join(SCREENS, "summary.md"), redact(readFileSync(summary, "utf8"), sandbox.root));
    console.log(`wrote ${SHOTS.map((s) => `docs/screens/${s}.svg`).join(", ")}, agent-messages.txt, summary.md`);
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

function allUserText(r: { body: any }): string {
  const msgs: any[] = r.body?.messages ?? [];
  return msgs
    .filter((m) => m.role === "user")
    .map((m) => contentText(m.content))
    .join("\n");
}

/** The sandbox's temp paths replaced by a plausible home, so the committed files name no machine. */
function redact(text: string, root: string): string {
  const encoded = (p: string): string => p.replace(/[/.]/g, "-");
  return text.split(`${root}/home`).join("/home/me").split(root).join("/home/me").split(encoded(root)).join("-home-me");
}

if (import.meta.main) await main();
