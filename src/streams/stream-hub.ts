/**
 * Turns what the engine committed into pushes. The engine's after-commit listener only marks
 * entities as changed (nothing is rendered for users nobody listens to); one loop then renders
 * each changed entity once, from its current state, and hands the JSON to every subscription of
 * its user on its channel. An entity changed again before it was rendered is rendered once.
 *
 * Rendering and sending share the engine's thread, so while the engine is busy (it stored a batch
 * in the last ENGINE_BUSY_MS) the loop takes at most BUSY_SHARE of the time: after each slice of
 * work it pauses in proportion. When entities change faster than that share can render them,
 * they are rendered less often (each time in their latest state), rather than the engine slowing
 * down. While the engine is idle, the loop only lets other work in between slices.
 */
import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';
import type { DcaRecord } from '../domain/dca-bot/step-output.ts';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { CommittedBatch } from '../engine/engine-store.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import { gridBotKind } from '../engine/kinds/grid-bot.kind.ts';
import { smartTradeKind } from '../engine/kinds/smart-trade.kind.ts';
import { frames } from './action-cable.ts';
import type { ChannelName } from './channels.ts';

export interface Subscriber {
  /** `entityKey` names the entity (for drop-to-latest). */
  push(entityKey: string, message: EntityMessage): void;
}

/**
 * An entity serialised once, and its frame encoded once per identifier: the subscribers of one
 * user usually share an identifier (the same key signs the same text).
 */
export class EntityMessage {
  private readonly encoded = new Map<string, Buffer>();

  constructor(readonly json: string) {}

  frameFor(identifier: string): Buffer {
    let frame = this.encoded.get(identifier);
    if (!frame) this.encoded.set(identifier, (frame = Buffer.from(frames.message(identifier, this.json))));
    return frame;
  }
}

/** The channels' entities as the REST API shows them; undefined (or a throw) skips the push. */
export interface EntityRenderers {
  deal(userId: number, dealId: number): Promise<unknown>;
  smartTrade(userId: number, id: number): Promise<unknown>;
  gridBot(userId: number, id: number): Promise<unknown>;
  gridProfit(botId: number, record: GridProfitRecord): unknown;
}

interface Change {
  channel: ChannelName;
  userId: number;
  render(): unknown;
}

export interface HubLogger {
  debug(object: object, message: string): void;
}

export class StreamHub {
  private readonly topics = new Map<string, Set<Subscriber>>();
  private changed = new Map<string, Change>();
  private rendering = false;
  private profitSequence = 0;
  private lastCommitAt = -Infinity;

  constructor(
    private readonly renderers: EntityRenderers,
    private readonly logger: HubLogger,
    private readonly busyShare = BUSY_SHARE,
  ) {}

  subscribe(channel: ChannelName, userId: number, subscriber: Subscriber): void {
    const key = topic(channel, userId);
    let subscribers = this.topics.get(key);
    if (!subscribers) this.topics.set(key, (subscribers = new Set()));
    subscribers.add(subscriber);
  }

  unsubscribe(channel: ChannelName, userId: number, subscriber: Subscriber): void {
    const key = topic(channel, userId);
    const subscribers = this.topics.get(key);
    subscribers?.delete(subscriber);
    if (subscribers?.size === 0) this.topics.delete(key);
  }

  /** The engine's after-commit listener: cheap, never awaits. */
  noteCommitted(batch: CommittedBatch): void {
    this.lastCommitAt = performance.now();
    const owners = new Map<number, number>();
    for (const { id, kind, userId } of batch.automations) {
      owners.set(id, userId);
      if (kind === smartTradeKind.name) {
        this.note('SmartTradesChannel', userId, `smart_trade:${id}`, () => this.renderers.smartTrade(userId, id));
      } else if (kind === gridBotKind.name) {
        this.note('GridBotsChannel', userId, `grid_bot:${id}`, () => this.renderers.gridBot(userId, id));
      }
    }
    for (const { kind, automationId, records } of batch.records) {
      if (kind === dcaBotKind.name) {
        for (const record of records as DcaRecord[]) {
          if (record.type !== 'deal') continue;
          const { userId, deal } = record;
          this.note('DealsChannel', userId, `deal:${deal.id}`, () => this.renderers.deal(userId, deal.id));
        }
      } else if (kind === gridBotKind.name) {
        const userId = owners.get(automationId);
        if (userId === undefined) continue;
        for (const record of records as GridProfitRecord[]) {
          const key = `grid_profit:${automationId}:${++this.profitSequence}`;
          this.note('GridBotsChannel', userId, key, () => this.renderers.gridProfit(automationId, record));
        }
      }
    }
    if (this.changed.size > 0 && !this.rendering) void this.renderChanged();
  }

  private note(channel: ChannelName, userId: number, entityKey: string, render: () => unknown): void {
    if (this.topics.has(topic(channel, userId))) this.changed.set(entityKey, { channel, userId, render });
  }

  private async renderChanged(): Promise<void> {
    this.rendering = true;
    try {
      let sliceStarted = performance.now();
      while (this.changed.size > 0) {
        const changes = this.changed;
        this.changed = new Map();
        for (const [entityKey, change] of changes) {
          await this.push(entityKey, change);
          const busy = performance.now() - sliceStarted;
          if (busy < SLICE_MS) continue;
          const engineBusy = performance.now() - this.lastCommitAt < ENGINE_BUSY_MS;
          await (engineBusy && this.busyShare < 1 ? pause((busy * (1 - this.busyShare)) / this.busyShare) : nextTurn());
          sliceStarted = performance.now();
        }
      }
    } finally {
      this.rendering = false;
    }
  }

  private async push(entityKey: string, change: Change): Promise<void> {
    if (!this.topics.has(topic(change.channel, change.userId))) return;
    let entity: unknown;
    try {
      entity = await change.render();
    } catch (error) {
      this.logger.debug({ err: error, entity: entityKey }, 'stream entity not rendered');
      return;
    }
    const subscribers = this.topics.get(topic(change.channel, change.userId));
    if (entity === undefined || !subscribers) return;
    const message = new EntityMessage(JSON.stringify(entity));
    for (const subscriber of subscribers) subscriber.push(entityKey, message);
  }
}

/** The share of the thread's time the hub may take while it has work. */
const BUSY_SHARE = 0.08;
const SLICE_MS = 5;
const ENGINE_BUSY_MS = 100;

const topic = (channel: ChannelName, userId: number) => `${channel}:${userId}`;
