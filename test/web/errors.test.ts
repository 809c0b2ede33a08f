/** What the dashboard tells a person when the API refuses a call. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiErrorFrom, missingPermission, permissionFor } from '../../web/api/errors.ts';

describe('dashboard error messages', () => {
  it('finds the permission of a call in the API access table', () => {
    assert.equal(permissionFor('POST', '/ver1/grid_bots/7/enable'), 'BOTS_WRITE');
    assert.equal(permissionFor('GET', '/v2/smart_trades'), 'SMART_TRADES_READ');
    assert.equal(permissionFor('GET', '/ver1/accounts/market_pairs'), 'NONE');
    assert.equal(permissionFor('GET', '/nowhere'), undefined);
  });

  it('names the permission a 403 is about', () => {
    const error = apiErrorFrom(403, { error: 'Forbidden', error_description: 'Api key not authorized for this action' }, 'DELETE', '/ver1/grid_bots/3');
    assert.equal(error.message, 'This key lacks the BOTS_WRITE permission, which DELETE /ver1/grid_bots/3 needs.');
    assert.equal(missingPermission(['BOTS_READ'], 'GET', '/v2/smart_trades')?.message, 'This key lacks the SMART_TRADES_READ permission, which GET /v2/smart_trades needs.');
    assert.equal(missingPermission(['SMART_TRADES_READ'], 'GET', '/v2/smart_trades'), undefined);
  });

  it('says which part of a sign-in failed, without anything but the server’s words', () => {
    const key = apiErrorFrom(401, { error: 'api_key_invalid_or_expired', error_description: 'Unauthorized. Invalid or expired api key. No active key has this value.' }, 'GET', '/ver1/users/permissions_info');
    assert.equal(key.message, 'The API key is not accepted. Unauthorized. Invalid or expired api key. No active key has this value.');
    const html = apiErrorFrom(502, '<html>bad gateway</html>', 'GET', '/ver1/accounts');
    assert.equal(html.message, 'The server answered 502.');
  });

  it('keeps the field errors for the form and lists them in the message', () => {
    const error = apiErrorFrom(
      400,
      { error: 'record_invalid', error_description: 'Invalid parameters', error_attributes: { upper_price: ['must be greater than lower_price'] } },
      'POST',
      '/ver1/grid_bots/manual',
    );
    assert.deepEqual(error.fields, { upper_price: ['must be greater than lower_price'] });
    assert.equal(error.message, 'upper_price must be greater than lower_price');
  });
});
