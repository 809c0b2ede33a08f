/** Settings, rules and a step context for the DCA unit tests. */
import type { StepContext } from '../../automation.ts';
import type { TradingRules } from '../../market/trading-rules.ts';
import { dec, type Decimal } from '../../../shared/decimal.ts';
import type { BotConfig, DealSettings } from '../dca-settings.ts';

export function rules(priceStep: string, lotStep: string, minTotal = '5'): TradingRules {
  return {
    minPrice: dec(priceStep),
    maxPrice: dec('1000000'),
    priceStep: dec(priceStep),
    minLotSize: dec(lotStep),
    maxLotSize: dec('9000'),
    lotStep: dec(lotStep),
    minTotal: dec(minTotal),
    minMarketTotal: dec(minTotal),
    maxTotal: dec('9000000'),
    maxMarketBuyAmount: dec('1000'),
    maxMarketSellAmount: dec('1000'),
    bidMultiplierUp: dec(5),
    bidMultiplierDown: dec('0.2'),
    askMultiplierUp: dec(5),
    askMultiplierDown: dec('0.2'),
  };
}

export const ETH_RULES = rules('0.01', '0.0001');

export function dealSettings(overrides: Partial<DealSettings> = {}): DealSettings {
  return {
    strategy: 'long',
    profitCurrency: 'quote_currency',
    baseOrderVolume: '100',
    baseOrderVolumeType: 'quote_currency',
    safetyOrderVolume: '50',
    safetyOrderVolumeType: 'quote_currency',
    startOrderType: 'market',
    takeProfitType: 'total',
    takeProfit: '2',
    takeProfitSteps: [],
    trailingEnabled: false,
    trailingDeviation: '0.2',
    stopLossPercentage: '0',
    stopLossType: 'stop_loss',
    stopLossTimeoutEnabled: false,
    stopLossTimeoutSeconds: 0,
    tslEnabled: false,
    slToBreakevenEnabled: false,
    safetyOrderStepPercentage: '1',
    martingaleVolumeCoefficient: '1.5',
    martingaleStepCoefficient: '1.2',
    maxSafetyOrders: 5,
    activeSafetyOrdersCount: 2,
    customSafetySteps: [],
    closeDealsTimeout: null,
    minProfitPercentage: '0',
    feeRate: '0.001',
    ...overrides,
  };
}

export function botConfig(overrides: Partial<BotConfig> = {}, deal: Partial<DealSettings> = {}): BotConfig {
  return {
    name: 'test bot',
    pairs: ['USDT_ETH'],
    maxActiveDeals: 1,
    allowedDealsOnSamePair: null,
    cooldown: 0,
    disableAfterDealsCount: null,
    minPrice: null,
    maxPrice: null,
    strategyList: [{ strategy: 'nonstop', options: {} }],
    deal: dealSettings(deal),
    extra: {},
    ...overrides,
  };
}

/** A context with fixed prices that can be moved, and ids counting from 1000. */
export class TestContext implements StepContext {
  now = new Date(Date.UTC(2024, 0, 1));
  private nextIdValue = 1000;
  readonly prices = new Map<string, { last: Decimal; bid: Decimal; ask: Decimal }>();

  constructor(readonly marketRules: Record<string, TradingRules> = { USDT_ETH: ETH_RULES, USDT_BTC: rules('0.01', '0.00001') }) {}

  rules(pair: string): TradingRules {
    const found = this.marketRules[pair];
    if (!found) throw new Error(`No market ${pair}`);
    return found;
  }

  price(pair: string) {
    return this.prices.get(pair);
  }

  setPrice(pair: string, last: string): void {
    this.prices.set(pair, { last: dec(last), bid: dec(last), ask: dec(last) });
  }

  nextId = (): number => this.nextIdValue++;

  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }
}
