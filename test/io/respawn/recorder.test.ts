import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { initialState } from "../../../src/core/respawn/machine.ts";
import { HEARTBEAT_MS } from "../../../src/core/respawn/record.ts";
import { Recorder } from "../../../src/io/respawn/recorder.ts";
import { layout } from "../../../src/core/layout.ts";
import { settings } from "../../core/respawn/sim.ts";
import { isolatedEnv, tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

test("writes the record and the session's index entry; after /clear the old entry no longer names the supervisor", () => {
  const env = isolatedEnv(t.dir);
  const root = join(t.dir, "p", ".ctx");
  const who = {
    name: "w",
    pid: 7,
    target: "%1",
    project: join(t.dir, "p"),
    root,
    started_at: "2026-01-01T00:00:00.000Z",
  };
  let now = Date.parse("2026-01-01T00:00:01Z");
  const lines: string[] = [];
  const rec = new Recorder(
    who,
    env,
    () => now,
    (l) => lines.push(l),
  );
  const state = initialState(settings(), now);
  rec.note("idle", "stop_hook");
  rec.persist(state, "s-1", false);
  const written = JSON.parse(readFileSync(layout(root).respawnRecord("w"), "utf8"));
  expect(written).toMatchObject({ name: "w", pid: 7, session_id: "s-1", phase: "watching" });
  expect(written.events).toEqual([{ at: "2026-01-01T00:00:01.000Z", event: "idle", detail: "stop_hook" }]);
  expect(lines).toEqual(["2026-01-01T00:00:01.000Z idle: stop_hook"]);
  const index = join(env.XDG_STATE_HOME!, "ctx", "sessions");
  expect(JSON.parse(readFileSync(join(index, "s-1.json"), "utf8")).respawn).toEqual({
    name: "w",
    state: "watching",
    cycles: 0,
    reason: null,
    state_path: layout(root).respawnRecord("w"),
    updated_at: "2026-01-01T00:00:01.000Z",
  });

  now += 1000; // nothing changed and the heartbeat is not due: nothing written
  rec.persist({ ...state, phase: "idle" }, "s-2", false);
  expect(JSON.parse(readFileSync(layout(root).respawnRecord("w"), "utf8")).session_id).toBe("s-1");

  now += HEARTBEAT_MS;
  rec.persist({ ...state, phase: "idle" }, "s-2", false);
  expect(JSON.parse(readFileSync(layout(root).respawnRecord("w"), "utf8")).session_id).toBe("s-2");
  expect(JSON.parse(readFileSync(join(index, "s-1.json"), "utf8")).respawn).toBeNull();
  expect(JSON.parse(readFileSync(join(index, "s-2.json"), "utf8")).respawn).toMatchObject({ state: "idle" });
});
