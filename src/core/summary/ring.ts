/** A list that keeps only its newest `limit` items and counts all it was given. */
export interface Ring<T> {
  /** The newest items, oldest first. */
  items: T[];
  /** Everything ever pushed. */
  total: number;
  limit: number;
}

/** An empty ring keeping `limit` items. */
export function ring<T>(limit: number): Ring<T> {
  return { items: [], total: 0, limit };
}

/** Adds an item, dropping the oldest beyond the limit. */
export function push<T>(r: Ring<T>, item: T): void {
  r.items.push(item);
  r.total += 1;
  if (r.items.length > r.limit) r.items.shift();
}

/** One line of text, whitespace collapsed, cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * One line of at most `max` characters that keeps both ends of a long text: a request that pastes a
 * log or a review and asks at the end ("… My request: commit the changes") keeps its ask.
 */
export function bothEnds(text: string, max: number): string {
  const flat = oneLine(text, Number.POSITIVE_INFINITY);
  if (flat.length <= max) return flat;
  const head = Math.ceil(max * 0.6) - 2;
  return `${flat.slice(0, head)} … ${flat.slice(flat.length - (max - head - 3))}`;
}
