/** The dashboard's WebCrypto signatures against the documented vectors (docs/signing.md). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signatureHeaders } from '../../web/api/signing.ts';

const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const TIMESTAMP = 1767225600;

describe('dashboard request signing', () => {
  it('signs TL1 requests as the documented vectors', async () => {
    const remove = await signatureHeaders('tl1', 'key', SECRET, { method: 'delete', path: '/public/api/ver1/grid_bots/7', query: '', body: '' }, TIMESTAMP);
    assert.deepEqual(remove, {
      Apikey: 'key',
      'Signature-Timestamp': '1767225600',
      Signature: '90cf04a88fed9f542e19f7ade7b28eeb0f8f5a6d23d9faa6e7ee1e99ee02f268',
    });
    const note = await signatureHeaders(
      'tl1',
      'key',
      SECRET,
      { method: 'POST', path: '/public/api/ver1/grid_bots/7/note', query: '', body: '{"note":"hello"}' },
      TIMESTAMP,
    );
    assert.equal(note.Signature, '90cec58e14f133b49d1a59cf4168b507b21544a4eefaa2632557b53b8456e76a');
  });

  it('signs 3Commas requests over the path, query and body, as the reference example', async () => {
    const query = await signatureHeaders('3commas', 'key', SECRET, { method: 'POST', path: '/public/api/ver1/users/change_mode', query: 'mode=paper', body: '' }, TIMESTAMP);
    assert.deepEqual(query, { Apikey: 'key', Signature: 'bca8d8c10acfbe8e76c5335d3efbe0a550487170a8bb7aaea0a13efabab55316' });
    const form = await signatureHeaders('3commas', 'key', SECRET, { method: 'POST', path: '/public/api/ver1/users/change_mode', query: '', body: 'mode=paper' }, TIMESTAMP);
    assert.equal(form.Signature, 'bca8d8c10acfbe8e76c5335d3efbe0a550487170a8bb7aaea0a13efabab55316');
    const json = await signatureHeaders('3commas', 'key', SECRET, { method: 'POST', path: '/public/api/ver1/users/change_mode', query: '', body: '{"mode": "paper"}' }, TIMESTAMP);
    assert.equal(json.Signature, '0475b407ba6f2388d213134e478b330f74073388a232737837f79018694ae373');
  });
});
