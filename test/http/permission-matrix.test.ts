import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS } from '../../src/auth/permissions.ts';
import { dec } from '../../src/shared/decimal.ts';
import { ACCESS_TABLE, type RouteAccess } from '../../src/http/access-table.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const keyInvalid = (detail: string) => ({ error: 'api_key_invalid_or_expired', error_description: `Unauthorized. Invalid or expired api key. ${detail}` });
const NO_APIKEY = keyInvalid('The Apikey header is missing.');
const UNKNOWN_KEY = keyInvalid('No active key has this value.');
const signatureInvalid = (detail: string) => ({ error: 'signature_invalid', error_description: `Provided signature is invalid. ${detail}` });
const SIGNATURE_INVALID = signatureInvalid('It matches none of the payloads 3Commas clients sign.');
const FORBIDDEN = { error: 'Forbidden', error_description: 'Api key not authorized for this action' };
const ALL_PERMISSIONS = PERMISSIONS.filter((p) => p !== 'NONE');

const entries = Object.entries(ACCESS_TABLE as Record<string, RouteAccess>).map(([route, access]) => {
  const [method, url] = route.split(' ') as [string, string];
  // Any id will do: every check here happens before the route looks the record up.
  return { route, method, url, path: url.replace(/:\w+/g, '1'), access };
});

/** Unsigned routes that need parameters to answer 200. */
const OPEN_ROUTE_QUERY: Record<string, string> = {
  'GET /ver1/accounts/market_pairs': '?market_code=paper_trading',
  'GET /v2/accounts/market_pairs': '?market_code=paper_trading',
  'GET /ver1/accounts/currency_rates': '?market_code=paper_trading&pair=USDT_BTC',
  'GET /ver1/accounts/currency_rates_with_leverage_data': '?market_code=paper_trading&pair=USDT_BTC',
  'GET /ext/paper/candles': '?pair=USDT_BTC',
};

/** Unsigned routes that refuse a request without parameters: the TradingView signal needs its body. */
const OPEN_ROUTE_STATUS: Record<string, number> = { 'POST /trade_signal/trading_view': 400 };

let t: TestApp;
before(async () => {
  t = await startTestApp();
  await t.core.paper.applyTicks([{ pair: 'USDT_BTC', price: dec('60000'), at: new Date() }]);
});
after(() => t.close());

const DIGITS_ONLY = '(^\\d+$)';

/** Method and path of every route in the printed routing tree (children print relative to parents). */
function registeredRoutes(printed: string): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^((?:│   |    )*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (parents[depth - 1] ?? '') + match[2]!;
    parents[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}

describe('the access table and the registered routes', () => {
  const registered = () =>
    registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((route) => route.split(' ')[1]!.startsWith('/public/api/'))
      // Fastify adds a HEAD route to every GET route by itself.
      .filter((route) => !route.startsWith('HEAD '))
      .map((route) => route.replace(' /public/api', ' '));

  it('agree exactly', () => {
    const routes = registered().map((route) => route.replaceAll(DIGITS_ONLY, ''));
    assert.deepEqual(routes.sort(), Object.keys(ACCESS_TABLE).sort());
  });

  it('match only digits where a route takes an integer id', () => {
    for (const route of registered()) {
      for (const [, name, constraint] of route.matchAll(/:(\w+)(\([^)]*\))?/g)) {
        assert.equal(constraint === DIGITS_ONLY, name !== 'uuid', route);
      }
    }
  });
});

for (const { route, method, path, access } of entries) {
  describe(route, () => {
    if (!access.signed) {
      it('answers without a key', async () => {
        const response = await t.request({ method, path: path + (OPEN_ROUTE_QUERY[route] ?? '') });
        assert.equal(response.status, OPEN_ROUTE_STATUS[route] ?? 200, response.text);
        assert.equal(typeof response.body, 'object');
      });
      return;
    }

    it('answers 401 without an Apikey header', async () => {
      const response = await t.request({ method, path, headers: { Signature: 'ab'.repeat(32) } });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, NO_APIKEY);
    });

    if (method === 'GET') {
      // Fastify adds the HEAD route itself; it must not skip authentication.
      it('answers 401 to HEAD without a key', async () => {
        assert.equal((await t.request({ method: 'HEAD', path })).status, 401);
      });
    }

    it('answers 401 for an unknown key', async () => {
      const credentials = { apiKey: 'x'.repeat(64), secret: 'y'.repeat(64) };
      const response = await t.request({ method, path, credentials });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, UNKNOWN_KEY);
    });

    it('answers 401 signature_invalid for a wrong signature', async () => {
      const { apiKey } = await t.createKey({ permissions: [...ALL_PERMISSIONS] });
      const response = await t.request({ method, path, credentials: { apiKey, secret: 'wrong secret' } });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, SIGNATURE_INVALID);
    });

    if (access.permission !== 'NONE') {
      it(`answers 403 to a key without ${access.permission}`, async () => {
        const permissions = ALL_PERMISSIONS.filter((p) => p !== access.permission);
        const { apiKey, secret } = await t.createKey({ permissions });
        const response = await t.request({ method, path, credentials: { apiKey, secret } });
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, FORBIDDEN);
      });
    }

    it('answers 401 to a revoked key', async () => {
      const { id, apiKey, secret } = await t.createKey({ permissions: [...ALL_PERMISSIONS] });
      await t.core.apiKeys.revoke(id);
      const response = await t.request({ method, path, credentials: { apiKey, secret } });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, UNKNOWN_KEY);
    });
  });
}

describe('strict keys', () => {
  const path = '/ver1/users/change_mode';
  const body = '{"mode":"real"}';

  it('refuse a JSON body signed over the path alone', async () => {
    const { apiKey, secret } = await t.createKey({ strict: true });
    const credentials = { apiKey, secret };
    const response = await t.request({ method: 'POST', path, body, contentType: 'application/json', credentials, signWith: `/public/api${path}` });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, signatureInvalid('It leaves out the body, which this strict key does not accept.'));
  });

  it('accept a JSON body signed as path?body', async () => {
    const { apiKey, secret } = await t.createKey({ strict: true });
    const credentials = { apiKey, secret };
    const response = await t.request({ method: 'POST', path, body, contentType: 'application/json', credentials, signWith: `/public/api${path}?${body}` });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { mode: 'real' });
  });
});

describe('RSA keys', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsaPublicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('verify a Base64 RSA-SHA256 signature', async () => {
    const { apiKey } = await t.createKey({ rsaPublicKeyPem });
    const response = await t.request({ path: '/ver1/validate', credentials: { apiKey, privateKey } });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { valid: true });
    const info = await t.request({ path: '/ver1/users/permissions_info', credentials: { apiKey, privateKey } });
    assert.equal(info.body.signature_type, 'rsa');
  });

  it('verify a JSON body signed as path + body without a question mark', async () => {
    const { apiKey } = await t.createKey({ rsaPublicKeyPem });
    const body = '{"mode": "real"}';
    const response = await t.request({ method: 'POST', path: '/ver1/users/change_mode', body, contentType: 'application/json', credentials: { apiKey, privateKey } });
    assert.equal(response.status, 201);
  });

  it('refuse an HMAC signature', async () => {
    const { apiKey, secret } = await t.createKey({ rsaPublicKeyPem });
    assert.equal(secret, '');
    const response = await t.request({ path: '/ver1/validate', credentials: { apiKey, secret: 'any secret' } });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, SIGNATURE_INVALID);
  });
});
