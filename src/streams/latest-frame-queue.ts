/**
 * A connection's outgoing frames, bounded. Frames are keyed by entity: a newer frame for an
 * entity still waiting replaces the older one in its place, so a slow reader gets each entity's
 * latest state rather than its history. When `limit` different entities wait, the oldest waiting
 * frame is dropped to make room.
 */
export class LatestFrameQueue {
  private readonly frames = new Map<string, Buffer>();
  /** Frames replaced by a newer one of the same entity before they were sent. */
  replaced = 0;
  /** Frames dropped because the queue was full. */
  dropped = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.frames.size;
  }

  push(entityKey: string, frame: Buffer): void {
    if (this.frames.has(entityKey)) {
      this.replaced += 1;
    } else if (this.frames.size >= this.limit) {
      const oldest = this.frames.keys().next().value as string;
      this.frames.delete(oldest);
      this.dropped += 1;
    }
    this.frames.set(entityKey, frame);
  }

  /** Removes and returns the frame that has waited longest. */
  shift(): Buffer | undefined {
    const next = this.frames.entries().next();
    if (next.done) return undefined;
    const [key, frame] = next.value;
    this.frames.delete(key);
    return frame;
  }

  clear(): void {
    this.frames.clear();
  }
}
