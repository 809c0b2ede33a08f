import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLogLine } from './logging.ts';

describe(formatLogLine.name, () => {
  const time = new Date(2025, 0, 2, 13, 4, 5).getTime();

  it('shows time, level, message and the other fields, leaving out what every line has', () => {
    const line = JSON.stringify({ level: 30, time, pid: 7, hostname: 'h', service: 'tradeloop', msg: 'Tradeloop is listening', store: 'pglite', address: { port: 8080 } });
    assert.equal(formatLogLine(line), '13:04:05 INFO  Tradeloop is listening store=pglite address={"port":8080}\n');
  });

  it('shows an error by its message, quotes text with spaces, and colours the level on a terminal', () => {
    const line = JSON.stringify({ level: 40, time, msg: 'price feed error', err: { type: 'Error', message: 'no route', stack: 'Error: no route\n at x' }, exchange: 'binance x' });
    assert.equal(formatLogLine(line), '13:04:05 WARN  price feed error err="no route" exchange="binance x"\n');
    assert.equal(formatLogLine(line, true).slice(9, 19), '\u001b[33mWARN ');
  });

  it('passes a line that is no JSON through', () => {
    assert.equal(formatLogLine('plain text\n'), 'plain text\n');
  });
});
