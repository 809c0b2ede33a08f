/** Turns rows into one array per column, the shape `unnest($1::type[], ...)` takes. */
export function columns(rows: ReadonlyArray<readonly unknown[]>, width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => rows.map((row) => row[column]));
}
