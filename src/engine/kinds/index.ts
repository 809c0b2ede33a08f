/**
 * Every kind of automation the engine runs. A kind's module lives beside this file
 * (`grid-bot.kind.ts`, ...) and is listed here; records it emits need a writer registered with
 * `engine.registerRecordWriter` in the composition root.
 */
import type { AnyAutomationKind } from '../automation-kind.ts';
import { dcaBotKind } from './dca-bot.kind.ts';
import { gridBotKind } from './grid-bot.kind.ts';
import { smartTradeKind } from './smart-trade.kind.ts';
import { tradeKind } from './trade.kind.ts';

export const AUTOMATION_KINDS: readonly AnyAutomationKind[] = [gridBotKind, smartTradeKind, tradeKind, dcaBotKind];
