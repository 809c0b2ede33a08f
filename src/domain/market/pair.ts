/** Pairs are written the reference's way, QUOTE_BASE (`USDT_BTC` buys BTC with USDT). */
export interface Pair {
  code: string;
  base: string;
  quote: string;
}

const PAIR = /^([A-Z0-9]{1,20})_([A-Z0-9]{1,20})$/;

export function parsePair(code: string): Pair | undefined {
  const match = PAIR.exec(code.trim().toUpperCase());
  if (!match) return undefined;
  return { code: `${match[1]}_${match[2]}`, quote: match[1]!, base: match[2]! };
}

export function pairCode(base: string, quote: string): string {
  return `${quote}_${base}`;
}
