/** A binary heap ordered by `before(a, b)`: the item for which `before` holds against all others is on top. */
export class Heap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(items[index]!, items[parent]!)) break;
      [items[index], items[parent]] = [items[parent]!, items[index]!];
      index = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.sinkFrom(0);
    }
    return top;
  }

  /** Keeps only the items `keep` accepts. */
  filter(keep: (item: T) => boolean): void {
    const kept = this.items.filter(keep);
    this.items.length = 0;
    for (const item of kept) this.push(item);
  }

  private sinkFrom(start: number): void {
    const items = this.items;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let best = index;
      if (left < items.length && this.before(items[left]!, items[best]!)) best = left;
      if (right < items.length && this.before(items[right]!, items[best]!)) best = right;
      if (best === index) return;
      [items[index], items[best]] = [items[best]!, items[index]!];
      index = best;
    }
  }
}
