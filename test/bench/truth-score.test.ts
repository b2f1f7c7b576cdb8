import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  atCompaction,
  compactSummaryOf,
  errorScore,
  FIELDS,
  falseFailures,
  fileScore,
  findings,
  HELD_OUT_GAP,
  halfOf,
  hasPhrase,
  type Label,
  openScore,
  PEER_FIELDS,
  readPeer,
  readSummary,
  score,
  textScore,
} from "../../bench/truth-score.ts";

/** A synthetic label: one open error, one neutral, files with an optional and a deleted one. */
const label: Label = {
  transcript: "synthetic.jsonl",
  cwd: "/home/u/shop",
  goal: { phrases: ["checkout", ["refund", "money back"]] },
  latest_request: { phrases: ["d", "Done"] },
  open_items: { items: [[["write the migration"]]], forbid: ["SHOP-1\\b"], tracker: null },
  errors_open: [{ match: "npm test" }],
  errors_neutral: [{ match: "notes\\.md" }],
  files: { modified: ["src/cart.ts", "src/pay.ts"], optional: ["package-lock.json", "dist/"], deleted: ["old.ts"] },
  subagent_runs: 2,
  usage: { tokens: 100_000 },
  window: { tokens: 200_000 },
};

/** A synthetic summary in ctx's layout that gets some fields right and some wrong. */
const md = [
  "# Handoff summary: chain-x",
  "",
  "- Context at handoff: 8% used (101,500 / 1,000,000 tokens, peak 9%), model claude-opus-4-6, level ok",
  "",
  "## Goal",
  "> Build the checkout with a refund flow",
  "",
  "## Latest request",
  "> d",
  "",
  "## Remaining work (open tasks)",
  "- #2 Write the migration (pending)",
  "- SHOP-1 Close the epic",
  "",
  "## Files modified (newest first)",
  "- `src/cart.ts` (Edit)",
  "",
  "## Unresolved errors",
  "- Bash `npm test`: Exit code 1",
  "",
  "## This session",
  "- Subagents: 3 subagent runs, 4 tool calls",
].join("\n");

/** Its JSON twin: the complete lists (files and errors are read from here first). */
const twin = {
  goal: "Build the checkout with a refund flow",
  latest_request: "d",
  files: [
    { path: "/home/u/shop/src/cart.ts", ops: "Edit" },
    { path: "/home/u/shop/old.ts", ops: "Write" },
    { path: "/home/u/shop/package-lock.json", ops: "changed by commands" },
    { path: "/home/u/shop/README.md", ops: "Edit" },
  ],
  errors: [
    { tool: "Bash", target: "npm test", message: "Exit code 1" },
    { tool: "Read", target: "/home/u/shop/notes.md", message: "File does not exist." },
    { tool: "Bash", target: "git push", message: "no upstream" },
    { tool: "Bash", target: "git push", message: "no upstream", resolved: true },
  ],
};

describe("reading a summary", () => {
  const r = readSummary(md, twin);
  test("takes usage and window from the context line, with thousands separators", () => {
    expect(r.usedTokens).toBe(101_500);
    expect(r.window).toBe(1_000_000);
  });
  test("counts subagent runs and reads the open-work bullets", () => {
    expect(r.subagentRuns).toBe(3);
    expect(r.open.bullets).toEqual(["#2 Write the migration (pending)", "SHOP-1 Close the epic"]);
  });
  test("reads files and errors from the twin, leaving out errors marked resolved", () => {
    expect(r.files.map((f) => f.path)).toHaveLength(4);
    expect(r.errors).toEqual([
      "Bash npm test Exit code 1",
      "Read /home/u/shop/notes.md File does not exist.",
      "Bash git push no upstream",
    ]);
  });
  test("without a twin, reads the Markdown's bullets", () => {
    const alone = readSummary(md, null);
    expect(alone.files).toEqual([{ path: "src/cart.ts", deleted: false }]);
    expect(alone.errors).toEqual(["Bash `npm test`: Exit code 1"]);
  });
  test("without a twin, a section of errors fixed along the way is not taken for the open ones", () => {
    const both = md.replace(
      "## Unresolved errors",
      "## Errors fixed along the way\n- Bash `git push`: no upstream\n\n## Open errors",
    );
    expect(readSummary(both, null).errors).toEqual(["Bash `npm test`: Exit code 1"]);
  });
  test("with no latest request apart from the goal, the goal stands for it", () => {
    const noLatest = md.replace("## Latest request\n> d\n", "");
    expect(readSummary(noLatest, null).latest).toContain("checkout");
  });
});

describe("scoring", () => {
  test("each field of the synthetic case", () => {
    const s = score(readSummary(md, twin), label);
    expect(s.goal).toBe(1); // "checkout" and the "refund" alternative
    expect(s.latest).toBe(0.5); // "d" but not the option it picks
    expect(s.open).toBe(0.5); // the expected item found, but a forbidden one shown
    // errors: npm test TP, notes.md neutral, git push FP → P 1/2, R 1 → F1 2/3
    expect(s.errors).toBeCloseTo(2 / 3, 6);
    // files: cart TP, old.ts deleted shown live FP, lock optional, README FP → P 1/3, R 1/2 → F1 0.4
    expect(s.files).toBeCloseTo(0.4, 6);
    expect(s.subagents).toBe(0);
    expect(s.usage).toBe(1); // 101,500 is within 2 % of 100,000
    expect(s.window).toBe(0);
  });
  test("phrases keep word edges and ignore case and spacing", () => {
    expect(hasPhrase("> d", "d")).toBe(true);
    expect(hasPhrase("did you push?", "d")).toBe(false);
    expect(hasPhrase("Did   You push", "did you push")).toBe(true);
    expect(hasPhrase("run /clear now", "/clear")).toBe(true);
  });
  test("raw command markup or a forbidden pattern zeroes a text field", () => {
    expect(textScore("> <bash-stdout>module x</bash-stdout>", ["module"])).toBe(0);
    expect(textScore("create the beads", ["beads"], ["^\\s*>?\\s*create the beads\\s*$"])).toBe(0);
    expect(textScore("", [])).toBe(0);
  });
  test("open items: spurious items count when nothing is open, the tracker must be named when used", () => {
    const none = { items: [], forbid: [], tracker: null };
    expect(openScore({ text: "- (no open tasks recorded)", bullets: [] }, none)).toBe(1);
    expect(openScore({ text: "- fix it", bullets: ["fix it"] }, none)).toBe(0);
    const bd = { items: [], forbid: ["gqc\\.[0-9]"], tracker: "bd" };
    expect(openScore({ text: "- kept in bd: `bd list --status=open`", bullets: ["x"] }, bd)).toBe(1);
    expect(openScore({ text: "- (no open tasks recorded)", bullets: [] }, bd)).toBe(0.5);
  });
  test("errors and files: nothing expected and nothing reported is perfect, any false report is not", () => {
    const clean: Label = { ...label, errors_open: [], errors_neutral: [] };
    expect(errorScore([], clean)).toBe(1);
    expect(errorScore(["Bash git push no upstream"], clean)).toBe(0);
    expect(
      fileScore([{ path: "/home/u/shop/old.ts", deleted: true }], {
        ...label,
        files: { ...label.files, modified: [] },
      }),
    ).toBe(1);
  });
});

describe("the corpus labels", () => {
  const corpus = join(import.meta.dir, "..", "..", "bench", "corpus");
  const labels = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? labels(join(dir, e.name)) : e.name.endsWith(".label.json") ? [join(dir, e.name)] : [],
    );
  const all = labels(corpus);
  test("there are labelled real transcripts", () => {
    expect(all.length).toBeGreaterThanOrEqual(6);
  });
  for (const path of all) {
    test(`${path.slice(corpus.length + 1)}: its transcript exists and a summary that says exactly the label scores 1`, () => {
      const l = JSON.parse(readFileSync(path, "utf8")) as Label;
      expect(existsSync(join(dirname(path), l.transcript))).toBe(true);
      // Claude Code's window is 200k or 1M; a Codex rollout records its own (model_context_window).
      const codex = ((l as Label & { client_versions?: string[] }).client_versions ?? []).some((v) =>
        v.startsWith("0."),
      );
      if (codex) expect(l.window.tokens).toBeGreaterThan(0);
      else expect([200_000, 1_000_000]).toContain(l.window.tokens);
      const words = (ps: (string | string[])[]) => ps.map((p) => (Array.isArray(p) ? p[0] : p)).join(" ");
      const perfect = [
        `- Context at handoff: x% used (${l.usage.tokens} / ${l.window.tokens} tokens)`,
        "## Goal",
        `> ${words(l.goal.phrases)}`,
        "## Latest request",
        `> ${words(l.latest_request.phrases)}`,
        "## Remaining work",
        ...l.open_items.items.map((alts) => `- ${words(alts.flat())}`),
        ...(l.open_items.tracker ? [`- tracked in ${l.open_items.tracker}`] : []),
        ...(l.open_items.items.length || l.open_items.tracker ? [] : ["- (no open tasks recorded)"]),
        "## This session",
        `- Subagents: ${l.subagent_runs} subagent runs`,
      ].join("\n");
      const perfectTwin = {
        files: l.files.modified.map((p) => ({ path: `${l.cwd}/${p}`, ops: "Edit" })),
        errors: l.errors_open.map((e) => ({ tool: "Bash", target: e.match, message: "failed" })),
      };
      const s = score(readSummary(perfect, perfectTwin), l);
      for (const f of FIELDS) expect(`${f}=${s[f]}`).toBe(`${f}=1`);
      if (l.peer) {
        // The state at the compaction: `line` holds the client's summary, `cut` the boundary before it.
        const lines = readFileSync(join(dirname(path), l.transcript), "utf8").split("\n");
        expect(compactSummaryOf(lines.join("\n"))?.line).toBe(l.peer.line);
        expect(lines[l.peer.cut - 1]).toContain('"compact_boundary"');
        expect(l.peer.cut).toBeLessThan(l.peer.line);
        expect(l.peer.latest_request.phrases.length).toBeGreaterThan(0);
      }
    });
  }
});

describe("held-out split and findings", () => {
  const split = { development: ["spotter", "codemie-code"], held_out: ["oh-my-posh"] };

  test("a transcript's half is its repository folder's", () => {
    expect(halfOf("spotter/258c.jsonl", split)).toBe("development");
    expect(halfOf("codemie-code/claude/x/turn-2.jsonl", split)).toBe("development");
    expect(halfOf("oh-my-posh/77ff.jsonl", split)).toBe("held-out");
    expect(halfOf("elsewhere/a.jsonl", split)).toBeNull();
  });

  test("a held-out field more than 0.05 below development is a finding, 0.05 or less is not", () => {
    const dev = { goal: 1, latest: 0.9, errors: 0.8, files: 0.5 };
    const held = { goal: 0.95, latest: 0.84, errors: 0.2, files: 0.9 };
    expect(findings(dev, held)).toEqual([
      { field: "latest", development: 0.9, heldOut: 0.84 },
      { field: "errors", development: 0.8, heldOut: 0.2 },
    ]);
    expect(HELD_OUT_GAP).toBe(0.05);
  });

  test("false failures count every reported error that is not still open, a harmless look-up too", () => {
    expect(falseFailures([], label)).toBe(0);
    expect(falseFailures(["Bash npm test Exit code 1"], label)).toBe(0);
    expect(falseFailures(["Read notes.md: missing"], label)).toBe(1);
    expect(falseFailures(["Bash git push rejected", "Bash rg foo: exit 2", "Bash npm test"], label)).toBe(2);
  });

  test("the split file names every labelled repository folder exactly once", () => {
    const corpus = join(import.meta.dir, "..", "..", "bench", "corpus");
    const s = JSON.parse(readFileSync(join(corpus, "split.json"), "utf8")) as {
      development: string[];
      held_out: string[];
    };
    const all = [...s.development, ...s.held_out];
    expect(new Set(all).size).toBe(all.length);
    for (const repo of readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory()))
      expect(all).toContain(repo.name);
  });
});

describe("peer: the client's own compaction summary", () => {
  /** A compaction summary in Claude Code's layout, analysis first (its numbered points must not be read as sections). */
  const compact = [
    "This session is being continued from a previous conversation that ran out of context.",
    "Analysis:",
    "1. **Errors encountered**: a flaky build, fixed",
    "2. **Files**: `wrong/analysis.ts`",
    "",
    "Summary:",
    "1. Primary Request and Intent:",
    "   The user asked to build the checkout with a refund flow.",
    "2. Key Technical Concepts:",
    "   - Stripe",
    "3. Files and Code Sections:",
    "   - `src/cart.ts`",
    "     - added the refund button",
    "   - `/home/u/shop/src/pay.ts`",
    "   - spotter-gqc.6 is not a file",
    "4. Errors and fixes:",
    "   - `npm test` failed on a typo: fixed by renaming the import",
    "   - `npm test` still failing on the refund case, not yet fixed",
    "5. Problem Solving:",
    "   Solved the rounding issue.",
    "6. All user messages:",
    '   - "build the checkout with a refund flow"',
    '   - "d"',
    "7. Pending Tasks:",
    "   - Write the migration",
    "8. Current Work:",
    "   Writing the migration.",
  ].join("\n");

  test("reads goal, latest, pending work, still-open errors and files from its sections", () => {
    const r = readPeer(compact);
    expect(r.goal).toContain("refund flow");
    expect(r.latest).toBe('"d"');
    expect(r.open.bullets).toEqual(["Write the migration"]);
    expect(r.errors).toEqual(["`npm test` still failing on the refund case, not yet fixed"]);
    expect(r.files.map((f) => f.path)).toEqual(["src/cart.ts", "/home/u/shop/src/pay.ts"]);
    expect(r.usedTokens).toBeNull();
    expect(r.window).toBeNull();
  });

  test("is scored on the same label: each field's arithmetic", () => {
    const s = score(readPeer(compact), label);
    expect(s.goal).toBe(1);
    expect(s.latest).toBe(0.5); // "d" found, "Done" not
    expect(s.open).toBe(1); // the migration found, SHOP-1 not shown
    expect(s.errors).toBe(1); // the one open error, nothing else
    expect(s.files).toBe(1);
    expect(PEER_FIELDS).toEqual(["goal", "latest", "open", "errors", "files"]);
  });

  test("at the compaction, the peer block replaces latest, open, errors and files; the goal stays", () => {
    const peer = {
      line: 9,
      cut: 8,
      latest_request: { phrases: ["migration"] },
      open_items: { items: [], forbid: [], tracker: null },
      errors_open: [],
      files: { modified: ["src/cart.ts"], optional: [], deleted: [] },
    };
    const at = atCompaction(label, peer);
    expect(at.goal).toBe(label.goal);
    expect(at.latest_request.phrases).toEqual(["migration"]);
    expect(at.errors_open).toEqual([]);
    expect(at.files.modified).toEqual(["src/cart.ts"]);
    expect(score(readPeer(compact), at).errors).toBe(0); // its still-open npm test is not open then
    expect(score(readPeer(compact), at).latest).toBe(0);
  });

  test("the last compaction summary of a transcript is found with its line", () => {
    const t = [
      JSON.stringify({ type: "user", message: { content: "hi" } }),
      JSON.stringify({ type: "user", isCompactSummary: true, message: { content: "first" } }),
      "not json",
      JSON.stringify({
        type: "user",
        isCompactSummary: true,
        message: { content: [{ type: "text", text: "second" }] },
      }),
    ].join("\n");
    expect(compactSummaryOf(t)).toEqual({ line: 4, text: "second" });
    expect(compactSummaryOf(JSON.stringify({ type: "user", message: { content: "x" } }))).toBeNull();
  });
});
