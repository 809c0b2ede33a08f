/** Turns rows into one array per column, the shape `unnest($1::type[], ...)` takes. */
export function columns(rows: ReadonlyArray<readonly unknown[]>, width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => rows.map((row) => row[column]));
}

/**
 * Lists of texts, one per row, as slices of one array of all of them: a row's list is
 * `$n[first:last]` (1-based; empty when last < first), so a batch sends one array parameter
 * instead of an array literal per row. Answers each list's bounds, in order, and the array.
 */
export function slices(lists: ReadonlyArray<readonly string[]>): { bounds: Array<[first: number, last: number]>; all: string[] } {
  let next = 1;
  const bounds = lists.map((list): [number, number] => [next, (next += list.length) - 1]);
  return { bounds, all: lists.flat() };
}
