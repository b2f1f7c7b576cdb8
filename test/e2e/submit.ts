/**
 * Submitting a line to an interactive client in tmux reliably. Under load the
 * client sometimes drops the Enter, or keystrokes typed while it is still
 * starting: press Enter again while the text sits in the input box, and type
 * it again when the box is empty.
 */
import { inInputBox, stripAnsi, type TmuxSession } from "./tmux.ts";

/** Types `text`, presses Enter, and repeats what got lost until `done()` holds. */
export async function submit(
  t: TmuxSession,
  text: string,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  let echoed = await t.sendText(text);
  const deadline = Date.now() + timeoutMs;
  let last = Date.now();
  let ignored = 0;
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error(`no effect of typing ${JSON.stringify(text)}; screen:\n${await t.capture()}\n${processes()}`);
    if (Date.now() - last > 2500) {
      const screen = stripAnsi(await t.capture());
      if (inInputBox(screen, text)) {
        if (++ignored < 2) await t.sendKeys("Enter");
        else {
          // An Enter taken as part of a paste leaves a line break in the box, and later Enters do
          // nothing: Esc Esc clears the box, then the text is typed again.
          await t.sendKeys("Escape");
          await Bun.sleep(100);
          await t.sendKeys("Escape");
          await Bun.sleep(300);
          echoed = await t.sendText(text);
          ignored = 0;
        }
      } else if (!echoed && /^❯\s*$/m.test(screen)) {
        // Typed while the client was still starting, and lost: type it again (only then: once the box
        // showed the text, an empty box means it was submitted and `done` is still catching up).
        echoed = await t.sendText(text);
      }
      last = Date.now();
    }
    await Bun.sleep(150);
  }
}

/** What runs under tmux and ctx when a submit failed: the processes the client waits on, if any. */
function processes(): string {
  const r = Bun.spawnSync(["ps", "-eo", "pid,ppid,stat,etime,args", "--forest"], { stdout: "pipe" });
  const lines = r.stdout.toString().split("\n");
  return ["processes:", ...lines.filter((l) => /claude|ctx|tmux|bun/.test(l) && l.length < 400)].join("\n");
}
