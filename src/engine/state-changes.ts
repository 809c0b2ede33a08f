/**
 * An automation's stored state as a snapshot plus a log of changes after it. A grid bot's state is
 * mostly its line plan and settings, and a fill moves one or two lines: rewriting the whole state
 * on every fill made it the largest write of the engine. Each batch logs what it changed since the
 * state the batch before stored (paths into the state's JSON with their new values), and a new
 * snapshot is written once the changes logged since the last one add up to its size.
 */

/**
 * `[path, value]` sets the value at the path; `[path]` removes the key at the path. A path ending
 * in a list's `length` cuts the list to that length.
 */
export type StateChange = [Array<string | number>, unknown?];

const LENGTH = 'length';

/**
 * Changes as they are stored: their paths as one tree (`t`), each leaf `[value]` to set or `[]` to
 * remove. A grid fill moves a few fields of several neighbouring lines, and spelling each field's
 * whole path made the list about twice the size of the tree.
 */
export interface PackedChanges {
  t: PackedNode;
}

type PackedNode = { [key: string]: PackedNode } | [unknown?];

/**
 * Changes logged since a snapshot that add up past this part of its size are replaced by a new
 * snapshot. Reading a state applies them all, so this also bounds what a read applies.
 */
const LOG_FRACTION = 1;

/** What differs between two JSON values, down to the leaves of objects and arrays (an array may grow or be cut). */
export function diffJson(base: unknown, next: unknown): StateChange[] {
  const out: StateChange[] = [];
  diffInto(base, next, [], out);
  return out;
}

/** diffJson's changes appended to `out`, their paths under `path`. */
export function diffInto(base: unknown, next: unknown, path: Array<string | number>, out: StateChange[]): void {
  diffParts(base, next, path, out, (part) => part);
}

const texts = new WeakMap<PackedChanges, string>();

/** Packed changes as the JSON text stored: made once, when the writer weighs them against their snapshot. */
export function changesText(changes: PackedChanges): string {
  let text = texts.get(changes);
  if (text === undefined) texts.set(changes, (text = JSON.stringify(changes)));
  return text;
}

export function packChanges(changes: readonly StateChange[]): PackedChanges {
  let tree: PackedNode = branch();
  for (const [path, ...value] of changes) {
    if (path.length === 0) {
      tree = value as [unknown?];
      continue;
    }
    let node = tree as Record<string, PackedNode>;
    for (let index = 0; index < path.length - 1; index += 1) {
      const key = String(path[index]);
      let next = node[key] as Record<string, PackedNode> | undefined;
      if (next === undefined) node[key] = next = branch();
      node = next;
    }
    node[String(path[path.length - 1])] = value as [unknown?];
  }
  return { t: tree };
}

/**
 * A node of the tree: without a prototype, so that any key, `__proto__` too, is set by plain
 * assignment as an own key. Defining each key (`define`) was a sixth of finding a batch's changes.
 */
const branch = (): Record<string, PackedNode> => Object.create(null) as Record<string, PackedNode>;

/**
 * The snapshot with the changes applied, as a new value (the snapshot is left as it was). Changes
 * stored before they were packed are a list of them.
 */
export function applyChanges(snapshot: unknown, changes: PackedChanges | readonly StateChange[] | null | undefined): unknown {
  if (!changes) return snapshot;
  if (!Array.isArray(changes)) return applyTree(structuredClone(snapshot), (changes as PackedChanges).t);
  if (changes.length === 0) return snapshot;
  const root = structuredClone(snapshot);
  let result = root;
  for (const [path, ...value] of changes) {
    if (path.length === 0) {
      result = value[0];
      continue;
    }
    let parent = result as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (value.length === 0) delete parent[last];
    else define(parent, last, value[0]);
  }
  return result;
}

/**
 * The snapshot with its own changes and then each logged change applied in order. The snapshot
 * is changed in place and takes the logged values in: both must be the caller's own (parsed for
 * this read), since a later change may change a value an earlier one set.
 */
export function applyLog(snapshot: unknown, changes: PackedChanges | readonly StateChange[] | null | undefined, logged: readonly PackedChanges[]): unknown {
  let state = !changes ? snapshot : Array.isArray(changes) ? applyChanges(snapshot, changes) : applyTree(snapshot, (changes as PackedChanges).t);
  for (const { t } of logged) state = applyTree(state, t);
  return state;
}

function applyTree(target: unknown, node: PackedNode): unknown {
  if (Array.isArray(node)) return node[0];
  const parent = target as Record<string, unknown>;
  for (const key of Object.keys(node)) {
    const child = node[key]!;
    if (!Array.isArray(child)) applyTree(parent[key], child);
    else if (child.length === 0) delete parent[key];
    else define(parent, key, child[0]);
  }
  return target;
}

/**
 * Defined rather than assigned, so a key such as `__proto__` stays a plain own key, as JSON has it.
 * A list's `length` is the one key that is not a JSON key: it cuts the list (diffParts).
 */
function define(object: Record<string | number, unknown>, key: string | number, value: unknown): void {
  if (key === LENGTH && Array.isArray(object)) object.length = value as number;
  else Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** What a kind stores of a state, as StateSnapshots needs it (see AutomationKind). */
export interface StateEncoding {
  toJson(state: unknown): unknown;
  changesBetween?(base: unknown, next: unknown, path: Array<string | number>, out: StateChange[]): void;
}

/** The state last stored for an automation, with what the log holds since its snapshot. */
type Stored = (
  /** As its JSON text, parsed again for each diff. */
  | { json: string }
  /** As the state itself (a kind with `changesBetween`), with its timers' JSON. */
  | { state: unknown; timers: unknown }
) & {
  running: boolean;
  /** The length of the snapshot's text. */
  size: number;
  /** The length of the changes logged since the snapshot. */
  logged: number;
};

/**
 * Remembers the state last stored for each automation, to store only what changed since it. It
 * knows only what it stored itself: after a restart, a refusal, a failed batch or a quarantine,
 * the next state of an automation is stored whole. A change of `running` is logged like any
 * other, and says so (`setsRunning`: the store keeps that flag with the snapshot); stored whole,
 * the last state of each of thousands of SmartTrades stopped by one move was most of what their
 * batches wrote.
 *
 * A state is kept as its JSON text (several times smaller than the parsed value, and every
 * running automation keeps one), or, for kinds that find changes on their states themselves, as
 * the state itself: steps never change a state they were given and copy only what they change,
 * so that state shares most of its parts with the running state and costs little memory, and
 * the diff skips every part a step kept instead of encoding and parsing the whole state each time.
 */
export class StateSnapshots {
  private readonly stored = new Map<number, Stored>();

  /**
   * What to store for this state: the whole state (a new snapshot) or the changes since the state
   * last stored. `timers` is JSON made for this call (it is kept).
   */
  encode(id: number, state: unknown, timers: unknown, kind: StateEncoding, running: boolean): { state: unknown } | { changes: PackedChanges; setsRunning?: true } {
    const last = this.stored.get(id);
    if (last !== undefined) {
      const diff: StateChange[] = [];
      let json: string | undefined;
      if ('json' in last) {
        const whole = { v: kind.toJson(state), timers };
        diffInto(JSON.parse(last.json), whole, [], diff);
        json = JSON.stringify(whole);
      } else {
        kind.changesBetween!(last.state, state, ['v'], diff);
        diffInto({ timers: last.timers }, { timers }, [], diff);
      }
      const changes = packChanges(diff);
      const logged = last.logged + changesText(changes).length;
      if (logged <= last.size * LOG_FRACTION) {
        this.stored.set(id, json === undefined ? { state, timers, running, size: last.size, logged } : { json, running, size: last.size, logged });
        return last.running === running ? { changes } : { changes, setsRunning: true };
      }
    }
    const whole = { v: kind.toJson(state), timers };
    const json = JSON.stringify(whole);
    const size = json.length;
    this.stored.set(id, kind.changesBetween ? { state, timers, running, size, logged: 0 } : { json, running, size, logged: 0 });
    return { state: whole };
  }

  /**
   * The state storage holds for an automation, as it was just read or inserted (`stored`, its JSON
   * `{ v, timers }`), so that its next change is logged rather than stored whole: after a restart
   * or a takeover, every automation's first batch rewrote its whole state. A state whose kind's
   * JSON of it differs from what is stored (a state written by an older version) stays unknown.
   */
  seed(id: number, stored: { v: unknown; timers?: unknown }, state: unknown, kind: StateEncoding, running: boolean, size: { snapshot: number; logged: number }): void {
    const sizes = { running, size: size.snapshot, logged: size.logged };
    if (!kind.changesBetween) this.stored.set(id, { json: JSON.stringify(stored), ...sizes });
    else if (sameJson(kind.toJson(state), stored.v)) this.stored.set(id, { state, timers: stored.timers, ...sizes });
  }

  forget(id: number): void {
    this.stored.delete(id);
  }
}

/**
 * Whether two values have the same JSON, whatever the order of their keys (as in JSON, a key set
 * to `undefined` is absent and an `undefined` item is null).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item ?? null, b[index] ?? null));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = (object: Record<string, unknown>) => Object.keys(object).filter((key) => object[key] !== undefined);
  const leftKeys = keys(left);
  if (leftKeys.length !== keys(right).length) return false;
  return leftKeys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

/**
 * What differs between the JSON of two states, found on the states: the changes diffJson would
 * find between `partJson(base)` and `partJson(next)`, each value as `partJson` encodes it. `path`
 * is one stack for the whole walk, copied only into a change: most parts differ in nothing.
 */
export function diffParts(
  base: unknown,
  next: unknown,
  path: Array<string | number>,
  out: StateChange[],
  partJson: (part: unknown) => unknown,
): void {
  if (base === next) return;
  if (Array.isArray(base) && Array.isArray(next)) {
    // A list that grew or shrank (a deal's orders) is changed item by item, then cut or
    // extended: replaced whole, it was most of a DCA batch's logged changes.
    const common = Math.min(base.length, next.length);
    for (let index = 0; index < common; index += 1) {
      path.push(index);
      diffParts(base[index], next[index], path, out, partJson);
      path.pop();
    }
    for (let index = common; index < next.length; index += 1) out.push([[...path, index], partJson(next[index]) ?? null]);
    if (next.length < base.length) out.push([[...path, LENGTH], next.length]);
  } else if (isRecord(base) && isRecord(next)) {
    for (const key in next) {
      if (!Object.hasOwn(next, key) || next[key] === undefined) continue;
      path.push(key);
      if (own(base, key) === undefined) out.push([[...path], partJson(next[key])]);
      else diffParts(base[key], next[key], path, out, partJson);
      path.pop();
    }
    for (const key in base) {
      if (Object.hasOwn(base, key) && base[key] !== undefined && own(next, key) === undefined) out.push([[...path, key]]);
    }
  } else {
    // Leaves (decimals, dates, text, numbers) and reshaped parts: compared by their JSON, which
    // for text, flags and finite numbers is comparing them.
    const encoded = partJson(next);
    const before = partJson(base);
    if (isPlainLeaf(before) && isPlainLeaf(encoded) ? before !== encoded : JSON.stringify(before) !== JSON.stringify(encoded)) out.push([[...path], encoded]);
  }
}

/** A value whose JSON differs from another's exactly when the two differ (`===`). */
const isPlainLeaf = (value: unknown): boolean =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** A plain object, not a leaf value such as a decimal or a date. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A key's own value: JSON keys such as `__proto__` must not reach the prototype. */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
