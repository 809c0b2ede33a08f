import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frames, parseClientFrame, parseIdentifier } from './action-cable.ts';

describe('ActionCable frames', () => {
  it('reads subscribe and unsubscribe, and ignores anything else', () => {
    assert.deepEqual(parseClientFrame('{"command":"subscribe","identifier":"{}"}'), { command: 'subscribe', identifier: '{}' });
    assert.deepEqual(parseClientFrame('{"command":"unsubscribe","identifier":"x"}'), { command: 'unsubscribe', identifier: 'x' });
    for (const text of ['', 'nope', '[]', '{"command":"message","identifier":"x"}', '{"command":"subscribe","identifier":{}}']) {
      assert.equal(parseClientFrame(text), undefined, text);
    }
  });

  it('reads the channel and signed users of an identifier', () => {
    const identifier = '{"channel":"DealsChannel","users":[{"api_key":"k","signature":"s"}]}';
    assert.deepEqual(parseIdentifier(identifier), { channel: 'DealsChannel', users: [{ apiKey: 'k', signature: 's' }] });
    for (const text of ['{"channel":"DealsChannel","users":[]}', '{"channel":"DealsChannel","users":[{"api_key":1,"signature":"s"}]}', '{"users":[]}', 'x']) {
      assert.equal(parseIdentifier(text), undefined, text);
    }
  });

  it('echoes the identifier text and embeds the entity JSON as it is', () => {
    const identifier = '{"channel": "DealsChannel"}';
    assert.deepEqual(JSON.parse(frames.message(identifier, '{"id":1}')), { identifier, message: { id: 1 } });
    assert.deepEqual(JSON.parse(frames.confirm(identifier)), { identifier, type: 'confirm_subscription' });
    assert.equal(frames.ping(1700000000), '{"type":"ping","message":1700000000}');
  });
});
