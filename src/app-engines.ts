/**
 * The engine registry of a server alone on its database (the embedded store), and the leases of a
 * server that runs no engine (role api): it holds no account, so every action is refused.
 */
import os from 'node:os';
import type { EngineLeases } from './engine/engine.ts';
import type { EngineRegistry } from './services/engines.service.ts';

export const NO_LEASES: EngineLeases = {
  owns: () => false,
  accountIds: () => [],
  mayAct: () => false,
  take: async () => false,
  lost: () => {},
};

export function localEngineRegistry(role: string, accountIds: () => number[]): EngineRegistry {
  const startedAt = new Date();
  const id = `${os.hostname()}-${process.pid}`;
  return {
    list: async () => [{ id, host: os.hostname(), pid: process.pid, role, startedAt, lastSeenAt: new Date(), accountIds: accountIds() }],
  };
}
