import type { EngineInput } from '../domain/automation.ts';
import type { LiveAutomation } from './automation-kind.ts';

/**
 * The automations a batch's ticks woke, with each one's inputs of the batch from then on, in order,
 * for the engine to step after what the batch's fills caused was placed (`Engine.handle`): apart,
 * those a crossed bound may make order (or that heard of an order since) and those it only makes
 * trail.
 */
export class TickWakes {
  private readonly woken = new Map<number, { live: LiveAutomation; inputs: EngineInput[]; orders: boolean }>();

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
    const orders = [...this.woken.values()].some((entry) => entry.orders);
    return this.take((entry) => entry.orders === orders);
  }

  /**
   * Those that use the prices of `pair` on `source` (`uses`: the pairs an automation uses), those
   * that may order first: a tick there finds whom it wakes by the bands their steps leave.
   */
  takeUsing(source: string, pair: string, uses: (live: LiveAutomation) => readonly string[]): Array<{ live: LiveAutomation; input: EngineInput }> {
    const concerned = (entry: { live: LiveAutomation }) => entry.live.source === source && uses(entry.live).includes(pair);
    return [...this.take((entry) => entry.orders && concerned(entry)), ...this.take(concerned)];
  }

  private take(which: (entry: { live: LiveAutomation; orders: boolean }) => boolean): Array<{ live: LiveAutomation; input: EngineInput }> {
    const taken: Array<{ live: LiveAutomation; input: EngineInput }> = [];
    for (const [id, entry] of this.woken) {
      if (!which(entry)) continue;
      this.woken.delete(id);
      for (const input of entry.inputs) taken.push({ live: entry.live, input });
    }
    return taken;
  }
}
