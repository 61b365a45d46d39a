/**
 * Headless Debian Chromium (playwright-core) for tests that drive a browser themselves: the
 * end-to-end OAuth pages and the printed-page benches' own tests.
 */
import { chromium, type Browser } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}
