/**
 * The stream channels, what a subscriber signs for each and the permission it needs, and the check
 * of a subscription's users against their API keys.
 */
import { hasPermission, type Permission } from '../auth/permissions.ts';
import { verifySignedText } from '../auth/verify-signature.ts';
import type { ApiKeysService } from '../services/api-keys.service.ts';
import type { ChannelRequest } from './action-cable.ts';

export type ChannelName = 'DealsChannel' | 'SmartTradesChannel' | 'GridBotsChannel';

export const CHANNELS: Record<ChannelName, { signedText: string; permission: Permission }> = {
  DealsChannel: { signedText: '/deals', permission: 'BOTS_READ' },
  SmartTradesChannel: { signedText: '/smart_trades', permission: 'SMART_TRADES_READ' },
  GridBotsChannel: { signedText: '/grid_bots', permission: 'BOTS_READ' },
};

/** A confirmed subscription: its channel, and the users (with the keys that signed) it streams. */
export interface Grant {
  channel: ChannelName;
  users: Array<{ apiKey: string; userId: number }>;
}

const isChannel = (name: string): name is ChannelName => Object.hasOwn(CHANNELS, name);

export class ChannelAuthorizer {
  constructor(private readonly apiKeys: Pick<ApiKeysService, 'authenticate'>) {}

  /** Every listed user must sign the channel's text with an active key that holds its permission. */
  async authorize(request: ChannelRequest): Promise<Grant | undefined> {
    if (!isChannel(request.channel)) return undefined;
    const { signedText, permission } = CHANNELS[request.channel];
    const users: Grant['users'] = [];
    for (const { apiKey, signature } of request.users) {
      const key = await this.apiKeys.authenticate(apiKey).catch(() => undefined);
      if (!key || !hasPermission(key.permissions, permission) || !verifySignedText(key.signingKey, signedText, signature)) {
        return undefined;
      }
      users.push({ apiKey, userId: key.userId });
    }
    return { channel: request.channel, users };
  }

  /** False once a key of the grant was revoked or lost the channel's permission. */
  async stillValid(grant: Grant): Promise<boolean> {
    const { permission } = CHANNELS[grant.channel];
    for (const { apiKey } of grant.users) {
      const key = await this.apiKeys.authenticate(apiKey).catch(() => undefined);
      if (!key || !hasPermission(key.permissions, permission)) return false;
    }
    return true;
  }
}
