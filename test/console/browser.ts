// Debian's Chromium driven by playwright-core (no browser download), one browser per test file.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Headless, and nothing that would reach for the network on its own (the machines are offline). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Logs in through the form; `name` empty means the start token's local user. */
export async function logIn(page: Page, baseUrl: string, secret: string, name = ''): Promise<void> {
  await page.goto(`${baseUrl}login`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password or start token').fill(secret);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Collects what the page logged as errors (CSP violations, exceptions), to assert there were none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/**
 * A dropped event stream when the test closes the console is not a page error, nor are the HTTP
 * statuses a test provokes on purpose (401 for a wrong login, 409 for a refused decision): the
 * browser logs every non-2xx answer.
 */
export function expectNoPageErrors(errors: string[]): void {
  expect(errors.filter((e) => !/EventSource|ERR_CONNECTION|net::|status of (401|409)/.test(e))).toEqual([]);
}
