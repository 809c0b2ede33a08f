/**
 * Stores the engine's batches so that one automation cannot cost another its orders, and the
 * engine never runs ahead of its storage:
 * - while storage is unreachable the same batch is tried again with growing pauses (the engine
 *   takes no new batch meanwhile); past the last pause the caller hears of it;
 * - when storage refuses a batch (a statement fails on what one automation wrote), each
 *   automation's part is stored on its own and the parts refused are reported, to be quarantined.
 */
import { StorageUnavailableError } from '../shared/errors.ts';
import type { EngineBatch, EngineStore } from './engine-store.ts';

/** About 45 s in all, on top of the reconnection attempts of the database itself. */
export const STORE_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 15000, 15000];

export class StorageLostError extends Error {
  override readonly name = 'StorageLostError';
}

export class BatchStore {
  constructor(
    private readonly store: EngineStore,
    private readonly retryDelaysMs: readonly number[],
    private readonly onRetry: (error: unknown, attempt: number) => void,
  ) {}

  /** Stores the batch; answers the automations whose part storage refused, with the reason. */
  async save(batch: EngineBatch): Promise<Map<number, unknown>> {
    const refused = new Map<number, unknown>();
    try {
      await this.retrying(batch);
      return refused;
    } catch (error) {
      if (error instanceof StorageLostError) throw error;
    }
    for (const [automationId, part] of partsOf(batch)) {
      try {
        await this.retrying(part);
      } catch (error) {
        if (error instanceof StorageLostError) throw error;
        refused.set(automationId, error);
      }
    }
    // The companion's changes, the position and the tick log belong to no automation: a refusal of theirs is the caller's error.
    const { companion, position, ticks, ticksNeededFrom } = batch;
    if (companion || position || ticks || ticksNeededFrom !== undefined) {
      await this.retrying({
        automations: [],
        events: [],
        orders: [],
        records: [],
        ...(companion ? { companion } : {}),
        ...(position ? { position } : {}),
        ...(ticks ? { ticks } : {}),
        ...(ticksNeededFrom !== undefined ? { ticksNeededFrom } : {}),
      });
    }
    return refused;
  }

  /** Saving a batch twice stores it once: its rows are upserts, and a lost commit was rolled back. */
  async retrying(batch: EngineBatch): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.store.save(batch);
      } catch (error) {
        if (!(error instanceof StorageUnavailableError)) throw error;
        const delay = this.retryDelaysMs[attempt];
        if (delay === undefined) throw new StorageLostError('Storage stayed unreachable; the engine stopped', { cause: error });
        this.onRetry(error, attempt + 1);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

/** The batch split by automation; every row of a batch belongs to exactly one. */
function partsOf(batch: EngineBatch): Map<number, EngineBatch> {
  const parts = new Map<number, EngineBatch>();
  const part = (automationId: number) => {
    let found = parts.get(automationId);
    if (!found) parts.set(automationId, (found = { automations: [], events: [], orders: [], records: [] }));
    return found;
  };
  for (const automation of batch.automations) part(automation.id).automations.push(automation);
  for (const event of batch.events) part(event.automationId).events.push(event);
  for (const order of batch.orders) part(order.automationId).orders.push(order);
  for (const records of batch.records) part(records.automationId).records.push(records);
  return parts;
}
