import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (`apt-get install chromium`, which `.ci/run` does when it is missing). */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Headless Chromium for the browser suite: Debian's build, not a downloaded one; quiet (no sync,
 * updates or background requests, so it speaks only to the loopback servers the tests start).
 * Each launch has a fresh profile in a temporary directory that Playwright removes on close.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
