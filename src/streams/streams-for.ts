/** Wires the streams to a core: the hub hears the engine's commits, the authorizer its API keys. */
import type { Core } from '../app.ts';
import { ChannelAuthorizer } from './channels.ts';
import { entityRenderers } from './entity-renderers.ts';
import { StreamHub } from './stream-hub.ts';
import type { StreamServerOptions } from './stream-server.ts';

export function streamsFor(core: Core, heartbeatMs?: number): Omit<StreamServerOptions, 'now'> {
  const hub = new StreamHub(entityRenderers(core), core.logger);
  core.engine.onCommitted((batch) => hub.noteCommitted(batch));
  return {
    hub,
    authorizer: new ChannelAuthorizer(core.apiKeys),
    limits: core.config.streamLimits,
    ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
  };
}
