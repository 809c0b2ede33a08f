/** Timers automations asked for, by automation and key; scheduling a key again replaces it. */
import { Heap } from './heap.ts';

interface Entry {
  at: number;
  automationId: number;
  key: string;
}

export interface DueTimer {
  automationId: number;
  key: string;
  at: Date;
}

export class Timers {
  private readonly heap = new Heap<Entry>((a, b) => a.at < b.at);
  private readonly pending = new Map<number, Map<string, Entry>>();

  schedule(automationId: number, key: string, at: Date): void {
    const entry = { at: at.getTime(), automationId, key };
    let keys = this.pending.get(automationId);
    if (!keys) this.pending.set(automationId, (keys = new Map()));
    keys.set(key, entry);
    this.heap.push(entry);
  }

  cancel(automationId: number, key: string): void {
    this.pending.get(automationId)?.delete(key);
  }

  cancelAll(automationId: number): void {
    this.pending.delete(automationId);
  }

  /** The timers of one automation still pending, to be stored with it. */
  of(automationId: number): Array<{ key: string; at: string }> {
    const keys = this.pending.get(automationId);
    if (!keys) return [];
    return [...keys.values()].map((entry) => ({ key: entry.key, at: new Date(entry.at).toISOString() }));
  }

  /** Whether a timer (or a replaced one, yet to be dropped) is due at `now`. */
  anyDue(now: Date): boolean {
    const top = this.heap.peek();
    return top !== undefined && top.at <= now.getTime();
  }

  /** Removes and returns the timers due at `now`, earliest first. */
  due(now: Date): DueTimer[] {
    const due: DueTimer[] = [];
    const limit = now.getTime();
    for (let top = this.heap.peek(); top !== undefined && top.at <= limit; top = this.heap.peek()) {
      this.heap.pop();
      const keys = this.pending.get(top.automationId);
      if (keys?.get(top.key) !== top) continue;
      keys.delete(top.key);
      if (keys.size === 0) this.pending.delete(top.automationId);
      due.push({ automationId: top.automationId, key: top.key, at: new Date(top.at) });
    }
    return due;
  }
}
