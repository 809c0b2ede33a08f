/**
 * Progress of a backtest on stderr: a bar redrawn in place on a terminal (candles done, candles
 * per second, time left), or a plain line every tenth of the run when the output is not one.
 */
import type { Progress } from '../backtest/runner.ts';

export interface ProgressOutput {
  write(text: string): void;
  isTTY?: boolean;
}

const BAR_WIDTH = 30;

export function progressReporter(out: ProgressOutput, now: () => number = () => performance.now()) {
  const started = now();
  let lastTenth = -1;
  return (progress: Progress) => {
    const elapsed = (now() - started) / 1000;
    const rate = elapsed > 0 ? progress.done / elapsed : 0;
    const left = rate > 0 ? (progress.total - progress.done) / rate : 0;
    const share = progress.done / progress.total;
    const figures = `${progress.done}/${progress.total} candles, ${Math.round(rate)} candles/s, ${left.toFixed(1)} s left`;
    if (out.isTTY) {
      const filled = Math.round(share * BAR_WIDTH);
      out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)} % ${figures}\x1b[K`);
      if (progress.done === progress.total) out.write('\n');
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    out.write(`backtest ${(share * 100).toFixed(0)} %: ${figures}\n`);
  };
}
