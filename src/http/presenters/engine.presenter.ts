import type { EngineView } from '../../services/engines.service.ts';

export const presentEngine = (engine: EngineView) => ({
  id: engine.id,
  host: engine.host,
  pid: engine.pid,
  role: engine.role,
  started_at: engine.startedAt.toISOString(),
  last_seen_at: engine.lastSeenAt.toISOString(),
  account_ids: engine.accountIds,
});
