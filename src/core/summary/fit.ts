/** Fitting the handoff summary into its budget without cutting it. Pure. */

/** List lengths tried, longest first. */
const LIMITS = [12, 8, 5, 3, 2, 1, 0];

/**
 * The first of `render(limit)` for limit 12, 8, 5, 3, 2, 1, 0 items per list that is at most `max`
 * characters, else the one with 0: lists lose whole items from their end (each counted in "and N
 * more"), never is the text cut, so every section stays. Fields are capped (inert.ts), so the
 * shortest rendering fits.
 */
export function fitWithin(render: (limit: number) => string, max: number): string {
  let text = "";
  for (const limit of LIMITS) {
    text = render(limit);
    if (text.length <= max) break;
  }
  return text;
}
