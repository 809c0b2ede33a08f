/**
 * Debian's chromium driven by playwright-core (never a downloaded browser). Every console error
 * and failed request fails the test, except responses a test declares it expects. Screenshots go
 * to test-artifacts/, which git ignores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts');

/** Why the browser tests cannot run here, or undefined when they can. In CI a missing browser is a failure. */
export function browserMissing(): string | undefined {
  if (fs.existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium) to run the browser tests`;
  if (process.env.CI === 'true') throw new Error(reason);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  // Root in a container cannot use Chromium's sandbox.
  return chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and failed requests not expected by the test. */
  problems: string[];
  /** Allows responses with this status (0: no response at all) whose path matches, until `expectNoMore` is called. */
  expect(status: number, pathPattern: RegExp): void;
  expectNoMore(): void;
  screenshot(name: string): Promise<void>;
}

export async function watchedPage(browser: Browser, baseUrl: string, viewport = { width: 1280, height: 800 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl });
  // Waits end when the page gets there; the limit only catches a page that never does, on a busy machine too.
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const problems: string[] = [];
  let expected: Array<{ status: number; pattern: RegExp }> = [];
  const isExpected = (status: number, url: string) =>
    expected.some((entry) => entry.status === status && entry.pattern.test(new URL(url).pathname));
  page.on('response', (response) => {
    if (response.status() >= 400 && !isExpected(response.status(), response.url())) {
      problems.push(`${response.request().method()} ${response.url()} answered ${response.status()}`);
    }
  });
  page.on('requestfailed', (request) => {
    // A poll cut short by leaving the page is aborted on purpose.
    const reason = request.failure()?.errorText;
    if (reason !== 'net::ERR_ABORTED' && !isExpected(0, request.url())) problems.push(`${request.url()} failed: ${reason}`);
  });
  // The page asks before it closes or deletes anything; the tests mean it.
  page.on('dialog', (dialog) => void dialog.accept());
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium reports failed requests on the console too; those are judged above.
    if (message.text().startsWith('Failed to load resource:')) return;
    problems.push(`console error: ${message.text()}`);
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return {
    page,
    problems,
    expect: (status, pattern) => expected.push({ status, pattern }),
    expectNoMore: () => {
      expected = [];
    },
    screenshot: async (name) => {
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
  };
}
