/**
 * The cycle inside the client (`respawn.in_client`) is never mixed into work still under way, with
 * the real newest client and ctx's mod, interactive in tmux: a background subagent still running at
 * an idle turn's end, a background subagent's permission dialog open at that end, and a
 * main-thread tool call's permission or question dialog (the client does not end the turn while
 * one is open, so the mod never sees an idle turn then); and a background subagent under claude -p.
 * Each holds the cycle; once the work is done (or the subagent stopped) or the dialog answered,
 * the cycle runs. A background shell command does not hold it: it outlives /clear, and the fresh
 * conversation hears of its end.
 * 2.1.197 runs no mods: the suite skips it there.
 */
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runClaudeP, type Sandbox } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import {
  allText,
  type FakeApi,
  type LoggedRequest,
  lastToolResults,
  lastUserText,
  modelSteps,
  startsWithPrompt,
  type Turn,
} from "./fake-api.ts";
import { answer, clientRecord, inClientSandbox, KICKSTART, MODS, until } from "./in-client.ts";
import { submit } from "./submit.ts";
import type { TmuxSession } from "./tmux.ts";

// The sessions of the running test: the rig kills, stops and removes them after it.
let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let pane: TmuxSession | undefined;
const rig = stopAfterEach();

const SUB = "SUBAGENT-TASK-5521";
const at = (used: number) => ({ input_tokens: 100, cache_read_input_tokens: used - 100 });
/** The parent's call of a background subagent, at 50 %. */
const launch: Turn = {
  content: [
    {
      type: "tool_use",
      name: "Agent",
      input: {
        description: "Run steps",
        prompt: `${SUB}: run the steps`,
        subagent_type: "general-purpose",
        run_in_background: true,
      },
    },
  ],
  usage: at(100_000),
};
/** A WebFetch call: not in the allowed tools, so the client asks the person first. */
const fetchCall = (url: string, used: number): Turn => ({
  content: [{ type: "tool_use", name: "WebFetch", input: { url, prompt: "summarise the page" } }],
  usage: at(used),
});
/** No preflight request to claude.ai for WebFetch: the runs stay offline. */
const OFFLINE_FETCH = { skipWebFetchPreflight: true };

const isSub = (q: LoggedRequest) => startsWithPrompt(q, SUB);
const isFresh = (q: LoggedRequest) => lastUserText(q).includes(KICKSTART);
/** The main conversation's requests before the cycle. */
const before = () => api!.mainRequests().filter((q) => !isSub(q) && !isFresh(q));
const fresh = () => api!.mainRequests().filter(isFresh);
const events = () => clientRecord(sandbox!)?.events.map((e) => e.event) ?? [];

/** The parent's turns: the launch of its background subagent, then its steps at 92 %. */
function parentTurn(q: LoggedRequest): Turn {
  const n = modelSteps(q);
  if (n === 0) return launch;
  return answer(n === 1 ? "The agent runs in the background." : "The agent's work is in.", 184_000 + n);
}

/**
 * The fake API of a cycle with a background subagent, as `api`: the fresh session's requests get
 * "Continuing.", the subagent's `sub` (by default its answer, held until `release()`), the parent's `parent`.
 */
async function subagentApi(
  opts: { sub?: (q: LoggedRequest) => Turn; parent?: (q: LoggedRequest) => Turn } = {},
): Promise<{ api: FakeApi; release: () => void }> {
  const { promise: gate, resolve: release } = Promise.withResolvers<void>();
  const sub = opts.sub ?? (() => ({ ...answer("SUB-DONE: the steps ran.", 6_000), hold: gate }));
  const parent = opts.parent ?? parentTurn;
  api = await rig.api((q): Turn => (isFresh(q) ? answer("Continuing.", 10_000) : isSub(q) ? sub(q) : parent(q)));
  return { api, release };
}

/**
 * After the hold: the subagent's news reached the main conversation (`earlier`, the request that had to
 * come first, came before the fresh session), and the one cycle ran at that turn's end, after its hold.
 */
async function cycledAfterHold(earlier: LoggedRequest): Promise<void> {
  await until(() => events().at(-1) === "cycle_done");
  const all = api!.mainRequests();
  expect(lastUserText(before()[2]!)).toContain("SUB-DONE");
  expect(all.indexOf(earlier)).toBeLessThan(all.indexOf(fresh()[0]!));
  expectFreshSession(fresh()[0]!);
  expect(events()).toEqual(["hold", "cycle_start", "step", "cycle_done"]);
}

/** The fresh conversation after the cycle: the summary, the continue prompt, none of the old answers. */
function expectFreshSession(q: LoggedRequest): void {
  expect(allText(q)).toContain("<previous-session-summary>");
  expect(q.body.messages.filter((m: { role: string }) => m.role === "assistant")).toHaveLength(0);
}

test.skipIf(!MODS)(
  "interactive: a background subagent still running holds the cycle; once it is done, the cycle runs",
  async () => {
    const { api, release } = await subagentApi();
    sandbox = await inClientSandbox(api, {}, rig.sandbox);
    pane = await rig.client(sandbox);
    await submit(pane, "build the parser", () => api.mainRequests().length > 0);
    // The main turn ended at 92 % with the subagent's request held open: ctx says why it holds.
    await until(() => events().includes("hold"));
    const hold = clientRecord(sandbox)!.events.find((e) => e.event === "hold")!;
    expect(hold.detail).toBe("1 subagent(s) still running at 92%: the restart waits for the next idle turn");
    await pane.waitFor(/The agent runs in the background\./, 30_000);
    await Bun.sleep(3000); // past the quiet moment again: nothing more comes
    expect(before()).toHaveLength(2);
    expect(fresh()).toHaveLength(0);
    expect(clientRecord(sandbox)?.cycles).toBe(0);
    expect(api.mainRequests().filter(isSub)).toHaveLength(1);
    // The subagent finishes: the client tells the main conversation (a turn of its own), then the cycle.
    release();
    await until(() => fresh().length > 0);
    await cycledAfterHold(before()[2]!);
  },
  180_000,
);

test.skipIf(!MODS)(
  "interactive: a background subagent's permission dialog open at the turn's end holds the cycle until answered",
  async () => {
    const { api } = await subagentApi({
      sub: (q) => (modelSteps(q) === 0 ? fetchCall(`${api!.url}/page`, 5_000) : answer("SUB-DONE: fetched.", 6_000)),
    });
    sandbox = await inClientSandbox(api, { settings: OFFLINE_FETCH }, rig.sandbox);
    pane = await rig.client(sandbox);
    await submit(pane, "build the parser", () => api.mainRequests().length > 0);
    // The dialog is the subagent's, in the person's pane, and the main turn is over at 92 %.
    await pane.waitFor(/Do you want to allow Claude to fetch this content\?/, 60_000);
    await until(() => events().includes("hold"));
    expect(clientRecord(sandbox)!.events[0]!.detail).toBe(
      "1 subagent(s) still running at 92%: the restart waits for the next idle turn",
    );
    await Bun.sleep(3000);
    const screen = await pane.waitFor(/Do you want to allow Claude to fetch this content\?/, 1000);
    expect(screen).toMatch(/from the general-purpose agent/);
    expect(screen).toMatch(/The agent runs in the background\./);
    expect(before()).toHaveLength(2);
    expect(fresh()).toHaveLength(0);
    expect(clientRecord(sandbox)?.cycles).toBe(0);
    // Answered (1. Yes): the fetch runs, the subagent finishes, the client tells the main conversation, the cycle runs.
    await pane.sendKeys("Enter");
    await until(() => fresh().length > 0);
    const subs = api.mainRequests().filter(isSub);
    expect(subs).toHaveLength(2);
    expect(lastToolResults(subs[1]!)).toHaveLength(1);
    await cycledAfterHold(subs[1]!);
  },
  180_000,
);

test.skipIf(!MODS)(
  "interactive: a background subagent that was stopped no longer holds the cycle",
  async () => {
    // The subagent's answer is held: it never comes in time.
    const { api, release } = await subagentApi({
      parent: (q) => {
        const n = modelSteps(q);
        if (n === 0) return launch;
        if (n === 1) {
          // The parent stops its subagent by the id the launch reported.
          const id = /agentId: (\w+)/.exec(lastUserText(q))?.[1] ?? "none";
          return { content: [{ type: "tool_use", name: "TaskStop", input: { task_id: id } }], usage: at(150_000) };
        }
        return answer("The agent is stopped.", 184_000);
      },
    });
    try {
      sandbox = await inClientSandbox(api, {}, rig.sandbox);
      pane = await rig.client(sandbox);
      await submit(pane, "build the parser", () => api.mainRequests().length > 0);
      // Its loop ended when it was stopped: the turn's end at 92 % brings the cycle, with no hold.
      await until(() => fresh().length > 0);
      expect(lastToolResults(before()[2]!)[0]!.text).toMatch(/stopped/i);
      expectFreshSession(fresh()[0]!);
      await until(() => events().at(-1) === "cycle_done");
      expect(events()).toEqual(["cycle_start", "step", "cycle_done"]);
      expect(api.mainRequests().filter(isSub)).toHaveLength(1);
    } finally {
      release();
    }
  },
  180_000,
);

test.skipIf(!MODS)(
  "headless: under claude -p a background subagent holds the cycle too, and the run cycles once it is done",
  async () => {
    const { api, release } = await subagentApi();
    try {
      sandbox = await inClientSandbox(api, {}, rig.sandbox);
      const run = runClaudeP(sandbox, "build the parser", { timeoutMs: 120_000 });
      await until(() => events().includes("hold"));
      expect(clientRecord(sandbox)!.events[0]!.detail).toBe(
        "1 subagent(s) still running at 92%: the restart waits for the next idle turn",
      );
      expect(fresh()).toHaveLength(0);
      release();
      const r = await run;
      expect(r.code).toBe(0);
      // The run waited for the subagent, told the conversation, and cycled at that turn's end.
      expect(fresh()).toHaveLength(1);
      await cycledAfterHold(before()[2]!);
    } finally {
      release();
    }
  },
  180_000,
);

/** A question for the person (AskUserQuestion): the client shows it as a dialog and waits. */
const askCall = (used: number): Turn => ({
  content: [
    {
      type: "tool_use",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: "Which parser should I build?",
            header: "Parser",
            multiSelect: false,
            options: [
              { label: "PEG", description: "a PEG parser" },
              { label: "LR", description: "an LR parser" },
            ],
          },
        ],
      },
    },
  ],
  usage: at(used),
});
const MAIN_DIALOGS = [
  {
    name: "permission dialog",
    call: () => fetchCall(`${api!.url}/page`, 184_000),
    shown: /Do you want to allow Claude to fetch this content\?/,
    answered: /SSL|https?:|fetch/i,
  },
  {
    name: "question dialog",
    call: () => askCall(184_000),
    shown: /Which parser should I build\?[\s\S]*1\. PEG/,
    answered: /"Which parser should I build\?"="PEG"/,
  },
];

for (const dialog of MAIN_DIALOGS)
  test.skipIf(!MODS)(
    `interactive: a main-thread ${dialog.name} keeps the turn open, so no cycle starts until it is answered`,
    async () => {
      api = await rig.api((q): Turn => {
        if (isFresh(q)) return answer("Continuing.", 10_000);
        return modelSteps(q) === 0 ? dialog.call() : answer("Step one is done.", 185_000);
      });
      sandbox = await inClientSandbox(api, { settings: OFFLINE_FETCH }, rig.sandbox);
      pane = await rig.client(sandbox);
      await submit(pane, "build the parser", () => api!.mainRequests().length > 0);
      await pane.waitFor(dialog.shown, 60_000);
      await Bun.sleep(4000); // well past the mod's quiet moment (1.5 s) after a turn's end
      // The request at 92 % called the tool; the client waits for the person and the turn stays open:
      // the mod saw no turn's end, so ctx was never asked (no record), and nothing was typed or sent.
      await pane.waitFor(dialog.shown, 1000);
      expect(api.mainRequests()).toHaveLength(1);
      expect(clientRecord(sandbox)).toBeUndefined();
      await pane.sendKeys("Enter"); // the first choice: Yes, or PEG
      await until(() => fresh().length > 0);
      // The answer went to the tool and on to the next request; that turn's end at 92 % brought the cycle.
      const second = before()[1]!;
      expect(lastToolResults(second)).toHaveLength(1);
      // Answered, not refused: the fetch ran (its https upgrade fails on the fake API), or the choice came back.
      expect(lastToolResults(second)[0]!.text).not.toMatch(/rejected|doesn't want to proceed/i);
      expect(lastToolResults(second)[0]!.text).toMatch(dialog.answered);
      expect(api.mainRequests().indexOf(second)).toBeLessThan(api.mainRequests().indexOf(fresh()[0]!));
      expectFreshSession(fresh()[0]!);
      await until(() => events().at(-1) === "cycle_done");
      expect(events()).toEqual(["cycle_start", "step", "cycle_done"]);
    },
    180_000,
  );

test.skipIf(!MODS)(
  "interactive: a background shell command does not hold the cycle; it outlives /clear and the fresh session hears of it",
  async () => {
    const inFresh = (q: LoggedRequest) => allText(q).includes("<previous-session-summary>");
    api = await rig.api((q): Turn => {
      if (inFresh(q)) return answer("Continuing.", 10_000 + modelSteps(q));
      if (modelSteps(q) === 0)
        return {
          content: [
            {
              type: "tool_use",
              name: "Bash",
              input: {
                command: "while [ ! -f go ]; do sleep 0.2; done; echo BG-DONE > bg-marker.txt",
                description: "long build",
                run_in_background: true,
              },
            },
          ],
          usage: at(100_000),
        };
      return answer("The build runs in the background.", 184_000);
    });
    sandbox = await inClientSandbox(api, {}, rig.sandbox);
    pane = await rig.client(sandbox);
    await submit(pane, "build the parser", () => api!.mainRequests().length > 0);
    // The shell still runs (it waits for the file `go`), yet the cycle runs at the turn's end.
    await until(() => events().at(-1) === "cycle_done");
    expect(events()).toEqual(["cycle_start", "step", "cycle_done"]);
    expect(existsSync(join(sandbox.project, "bg-marker.txt"))).toBe(false);
    await until(() => fresh().length > 0);
    // The handoff summary the fresh conversation starts from says the command still runs.
    expect(allText(fresh()[0]!)).toContain("background command `while [ ! -f go ]");
    // The shell outlived /clear: let it finish; its notice goes to the fresh conversation.
    writeFileSync(join(sandbox.project, "go"), "");
    await until(() => existsSync(join(sandbox!.project, "bg-marker.txt")));
    await until(() => api!.mainRequests().some((q) => inFresh(q) && /long build/.test(lastUserText(q))));
    const notice = api.mainRequests().find((q) => inFresh(q) && /long build/.test(lastUserText(q)))!;
    expect(lastUserText(notice)).toMatch(/completed|exit code 0/i);
    // The old conversation, the one that started it, never hears of it.
    const old = api.mainRequests().filter((q) => !inFresh(q));
    expect(old).toHaveLength(2);
    expect(old.some((q) => /long build.*completed/i.test(lastUserText(q)))).toBe(false);
  },
  180_000,
);
