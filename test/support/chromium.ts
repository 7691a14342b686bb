import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Debian's chromium, driven by playwright-core (which downloads none). */
const CHROMIUM = process.env.DN_CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Checks the browser is there before any other setup (missing is a
 * failure, not a skip: `scripts/browser-up.sh` installs it).
 */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `chromium is missing at ${CHROMIUM}: run scripts/browser-up.sh ` +
        '(installs Debian chromium; as root, or it prints the apt command)',
    )
  }
}

/** Headless Chromium for a test, which closes it in `afterAll`. */
export function launchChromium(): Promise<Browser> {
  requireChromium()
  return chromium.launch({ executablePath: CHROMIUM })
}
