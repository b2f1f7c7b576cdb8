/**
 * Submitting a line to an interactive client in tmux reliably. Under load the
 * client sometimes drops the Enter, or keystrokes typed while it is still
 * starting: press Enter again while the text sits in the input box, and type
 * it again when the box is empty.
 */
import type { TmuxSession } from "./tmux.ts";

/** Types `text`, presses Enter, and repeats what got lost until `done()` holds. */
export async function submit(
  t: TmuxSession,
  text: string,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  await t.sendText(text);
  const deadline = Date.now() + timeoutMs;
  let last = Date.now();
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error(`no effect of typing ${JSON.stringify(text)}; screen:\n${await t.capture()}`);
    if (Date.now() - last > 2500) {
      const screen = await t.capture();
      if (screen.includes(`❯ ${text}`)) await t.sendKeys("Enter");
      else if (/^❯\s*$/m.test(screen)) await t.sendText(text);
      last = Date.now();
    }
    await Bun.sleep(150);
  }
}
