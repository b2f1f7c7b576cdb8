import { expect, test } from "bun:test";
import { terminalId, ttyNrOfStat } from "../../src/core/terminal-id.ts";

test("a tmux pane wins over the tty; a tty device number otherwise; none without either", () => {
  expect(terminalId({ TMUX: "/tmp/tmux-0/default,1,0", TMUX_PANE: "%12" }, 34816)).toBe("tmux:%12");
  expect(terminalId({ TMUX_PANE: "%12" }, 34816)).toBe("tty:34816"); // TMUX_PANE without TMUX: left over
  expect(terminalId({ TMUX: "x", TMUX_PANE: "%1; rm" }, 34817)).toBe("tty:34817");
  expect(terminalId({}, 0)).toBeUndefined();
  expect(terminalId({}, undefined)).toBeUndefined();
});

test("tty_nr is field 7 of /proc/<pid>/stat, after a comm that may hold spaces and parentheses", () => {
  expect(ttyNrOfStat("4242 (claude (x) y) S 1 4242 4242 34816 4242 4194560 0 0")).toBe(34816);
  expect(ttyNrOfStat("4242 (sh) S 1 4242 4242 0 -1 4194560")).toBeUndefined();
});
