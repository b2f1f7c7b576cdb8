/**
 * Measures `ctx finalize` on a generated 200 MB transcript: wall time and peak
 * RSS of the compiled binary (VmHWM polled from /proc, and the child's rusage).
 * Run: `bun build.ts && bun bench/finalize.ts [MB]`. Uses a temp dir; never the real home.
 */
import { closeSync, mkdtempSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MB = Number(process.argv[2] ?? 200);
const CTX = join(import.meta.dir, "..", "dist", "ctx");
const root = mkdtempSync(join(tmpdir(), "ctx-bench-finalize-"));

/** Writes a transcript of about `mb` MB: turns of tool calls, results, text, with big file contents. */
function generate(path: string, mb: number): number {
  const fd = openSync(path, "w");
  const filler = "x".repeat(2000);
  let bytes = 0;
  let i = 0;
  const write = (o: object) => {
    const line = `${JSON.stringify(o)}\n`;
    writeSync(fd, line);
    bytes += line.length;
  };
  write({ type: "user", message: { role: "user", content: "Refactor the whole code base" } });
  while (bytes < mb * 1024 * 1024) {
    const id = `toolu_${i}`;
    const tools: Array<[string, object]> = [
      ["Write", { file_path: `/src/f${i % 500}.ts`, content: filler }],
      ["Bash", { command: `npm test -- ${i}` }],
      ["Read", { file_path: `/src/f${i % 500}.ts` }],
      ["TaskCreate", { subject: `step ${i}` }],
    ];
    const [name, input] = tools[i % tools.length]!;
    write({
      type: "assistant",
      isSidechain: i % 50 === 0,
      requestId: `req_${i}`,
      message: {
        id: `msg_${i}`,
        model: "claude-sonnet-4-5",
        content: [
          { type: "text", text: `Working on step ${i}` },
          { type: "tool_use", id, name, input },
        ],
        usage: { input_tokens: 100, cache_read_input_tokens: 50_000 + (i % 100_000), output_tokens: 50 },
      },
    });
    const failed = name === "Bash" && i % 7 === 0;
    write({
      type: "user",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: id,
            content: failed ? `Exit code 1\n${filler}` : filler,
            is_error: failed,
          },
        ],
      },
    });
    i++;
  }
  write({ type: "user", message: { role: "user", content: "Now finish and summarise" } });
  closeSync(fd);
  return i;
}

try {
  const project = join(root, "project");
  mkdirSync(project, { recursive: true });
  const transcript = join(root, "bench-session.jsonl");
  const t0 = performance.now();
  const turns = generate(transcript, MB);
  console.log(
    `generated ${(statSync(transcript).size / 1048576).toFixed(0)} MB, ${turns} tool calls in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_CONFIG_HOME: join(root, "config"),
    TMPDIR: root,
    CLAUDE_PROJECT_DIR: project,
  };
  const start = performance.now();
  const proc = Bun.spawn([CTX, "finalize", "--transcript", transcript, "--project", project], {
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      // exited
    }
  }, 5);
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearInterval(poll);
  const seconds = (performance.now() - start) / 1000;
  const rusage = proc.resourceUsage();
  const maxRssMb = Math.max(peakKb / 1024, Number(rusage?.maxRSS ?? 0) / 1048576); // maxRSS is in bytes;
  console.log(`ctx finalize: exit ${code}, ${seconds.toFixed(2)} s, peak RSS ${maxRssMb.toFixed(0)} MB`);
  if (code !== 0) console.log(err);
  const summary = readFileSync(out.trim(), "utf8");
  console.log(`summary ${out.trim()}: ${summary.length} chars (~${Math.round(summary.length / 4)} tokens)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
