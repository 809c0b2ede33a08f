import { exchangeContract } from '../exchange.contract.ts';
import { dec } from '../../shared/decimal.ts';
import { PAPER_MARKETS } from './paper-markets.ts';
import { PaperVenue } from './paper-venue.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));

exchangeContract('PaperAccount', async () => {
  const venue = new PaperVenue(PAPER_MARKETS);
  const exchange = venue.openAccount(1, [
    { currency: 'USDT', free: dec('10000'), locked: dec('0') },
    { currency: 'BTC', free: dec('1'), locked: dec('0') },
  ]);
  venue.applyTick({ pair: 'USDT_BTC', price: dec('60000'), at: at(0) });
  return {
    exchange,
    pair: 'USDT_BTC',
    crossMarket: (pair, order) => {
      venue.applyTick({ pair, price: order.price!, at: at(1) });
    },
  };
});
