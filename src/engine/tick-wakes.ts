import type { EngineInput } from '../domain/automation.ts';
import type { LiveAutomation } from './automation-kind.ts';

/**
 * The automations a batch's ticks woke, with each one's inputs of the batch from then on, in order,
 * for the engine to step after what the batch's fills caused was placed (`Engine.handle`): apart,
 * those a crossed bound may make order (or that heard of an order since) and those it only makes
 * trail.
 */
export class TickWakes {
  private readonly woken = new Map<number, Woken>();

  get size(): number {
    return this.woken.size;
  }

  has(id: number): boolean {
    return this.woken.has(id);
  }

  add(live: LiveAutomation, input: EngineInput, orders: boolean): void {
    const id = live.automation.id;
    const known = this.woken.get(id);
    if (!known) this.woken.set(id, { live, inputs: [input], orders });
    else {
      known.inputs.push(input);
      known.orders ||= orders;
    }
  }

  /** Those that may order, or if there are none, those that trail; they leave the list. */
  takeNext(): Array<{ live: LiveAutomation; input: EngineInput }> {
    let orders = false;
    for (const entry of this.woken.values()) orders ||= entry.orders;
    return inputsOf(this.take((entry) => entry.orders === orders));
  }

  /**
   * Those that use the prices of `pair` on `source` (`uses`: the pairs an automation uses), those
   * that may order first: a tick there finds whom it wakes by the bands their steps leave.
   */
  takeUsing(source: string, pair: string, uses: (live: LiveAutomation) => readonly string[]): Array<{ live: LiveAutomation; input: EngineInput }> {
    const concerned = this.take((entry) => entry.live.source === source && uses(entry.live).includes(pair));
    // A stable sort: in the order they were woken within each group.
    return inputsOf(concerned.sort((a, b) => Number(b.orders) - Number(a.orders)));
  }

  private take(which: (entry: Woken) => boolean): Woken[] {
    const taken: Woken[] = [];
    for (const [id, entry] of this.woken) {
      if (!which(entry)) continue;
      this.woken.delete(id);
      taken.push(entry);
    }
    return taken;
  }
}

interface Woken {
  live: LiveAutomation;
  inputs: EngineInput[];
  orders: boolean;
}

/** Each entry's inputs in order; a loop, not a flatMap, which made an array for every entry. */
function inputsOf(entries: readonly Woken[]): Array<{ live: LiveAutomation; input: EngineInput }> {
  const steps: Array<{ live: LiveAutomation; input: EngineInput }> = [];
  for (const { live, inputs } of entries) for (const input of inputs) steps.push({ live, input });
  return steps;
}
