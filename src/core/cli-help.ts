/** The text of `ctx <command> --help`, from the command's grammar (no parser loaded: main.ts stays light). Pure. */
import type { Grammar } from "./cli.ts";

/** The text of `ctx <command> --help`: synopsis, description, and the option list. */
export function helpText(command: string, g: Grammar): string {
  const lead = "Usage: ";
  const lines = g.synopsis.map(
    (s, i) => `${i === 0 ? lead : " ".repeat(lead.length)}ctx ${command}${s ? ` ${s}` : ""}`,
  );
  const opts = Object.entries(g.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${o.type === "string" ? ` ${o.arg ?? "VALUE"}` : ""}`;
    return [flag, o.doc] as const;
  });
  opts.push(["-h, --help", "show this help"]);
  const width = Math.max(...opts.map(([f]) => f.length));
  const list = opts.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`);
  return `${lines.join("\n")}\n\n${g.about}\n\nOptions:\n${list.join("\n")}`;
}
