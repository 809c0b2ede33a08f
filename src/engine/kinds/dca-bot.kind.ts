/**
 * The DCA bot as an engine kind: one automation per bot, its state plain JSON (decimals as
 * strings), so storing it is the identity, loading it only checks its shape, and its changes are
 * found on the states themselves.
 */
import { type DcaBotAction, type DcaBotState } from '../../domain/dca-bot/dca-bot-state.ts';
import { botPairs, botWatches, isBotRunning, stepBot } from '../../domain/dca-bot/dca-bot.ts';
import type { DcaRecord } from '../../domain/dca-bot/step-output.ts';
import type { AutomationKind } from '../automation-kind.ts';
import { diffInto } from '../state-changes.ts';

export const dcaBotKind: AutomationKind<DcaBotState, DcaBotAction, DcaRecord> = {
  name: 'dca_bot',
  orderIdPrefix: 'd',
  step: stepBot,
  watches: botWatches,
  isRunning: isBotRunning,
  // A DCA bot has no error field of its own: it is disabled, and its log says why.
  quarantine: (state) => ({ ...state, enabled: false }),
  pairs: botPairs,
  toJson: (state) => state,
  // A step shares the settings it kept with the state before (dca-bot.ts): the diff skips them.
  changesBetween: (base, next, path, out) => diffInto(base, next, path, out),
  fromJson: (json) => {
    const state = json as DcaBotState;
    if (typeof state !== 'object' || state === null || !Array.isArray(state.deals) || typeof state.config !== 'object') {
      throw new Error('Stored DCA bot state is malformed');
    }
    return state;
  },
};
