import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type BrowserWallet,
  installBrowserWallet,
  type WalletCall,
} from './support/browserWallet.js'
import { bundleCli } from './support/bundleCli.js'
import { launchChromium, requireChromium } from './support/chromium.js'
import { type DnUpProcess, startDnUp } from './support/dnUpProcess.js'
import { newWallet, signWalletMessage } from './support/wallet.js'

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))
const VENUES = ['hl', 'aster', 'lighter', 'lighter-mainnet'] as const
const row = (venue: string, state: string) =>
  `#progress tr[data-venue="${venue}"][data-state="${state}"]`

/**
 * The browser binding page against a real `dn up` (API, worker, simulated
 * venues behind their protocol fakes): a wallet injected as
 * `window.ethereum` binds all four venues and creates an API key.
 */
describe('/bind: binding from a browser wallet', () => {
  let cli: string
  let dir: string
  let up: DnUpProcess
  let browser: Browser

  beforeAll(async () => {
    requireChromium()
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-bindpage-'))
    up = await startDnUp(cli, join(dir, 'data'))
    browser = await launchChromium()
    mkdirSync(ARTIFACTS, { recursive: true })
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await up?.stop()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  /** Play money on every simulated venue; the Lighter account indexes. */
  async function fund(wallet: PrivateKeyAccount) {
    const index: Record<string, number> = {}
    for (const venue of VENUES) {
      const res = await fetch(`${up.sim}/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ venue, owner: wallet.address }),
      })
      expect(res.status).toBe(200)
      index[venue] = (
        (await res.json()) as { accountIndex: number }
      ).accountIndex
    }
    return index
  }

  /** What the service has bound for `wallet` (a wallet-signed list). */
  async function boundVenues(wallet: PrivateKeyAccount) {
    const owner = wallet.address.toLowerCase()
    const expiresAt = Math.floor(Date.now() / 1000) + 60
    const res = await fetch(`${up.api}/v1/venue-bindings`, {
      headers: {
        'x-wallet-address': owner,
        'x-wallet-expires-at': String(expiresAt),
        'x-wallet-signature': await signWalletMessage(
          wallet,
          'list_venue_bindings',
          { owner, expiresAt },
        ),
      },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { bindings: { venue: string }[] }).bindings
      .map((b) => b.venue)
      .sort()
  }

  /** A page that records what it loads and anything that goes wrong. */
  async function openPage(
    wallet?: PrivateKeyAccount,
  ): Promise<{ page: Page; bw?: BrowserWallet; problems: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1000, height: 1100 },
      permissions: ['clipboard-read', 'clipboard-write'],
    })
    const bw = wallet
      ? await installBrowserWallet(context, wallet, 1)
      : undefined
    const page = await context.newPage()
    const origin = new URL(up.api).origin
    const problems: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== origin)
        problems.push(`elsewhere: ${r.url()}`)
    })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    await page.goto(`${up.api}/bind`)
    return { page, problems, ...(bw ? { bw } : {}) }
  }

  it('200 HTML with a strict CSP and an ETag; 304 when it matches; the script and styles', async () => {
    const res = await fetch(`${up.api}/bind`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).not.toMatch(/https?:|\*|unsafe-/)
    const html = await res.text()
    expect(html).toContain('<meta name="dn-auth-domain" content="dn">')
    expect(html).toContain('<script src="assets/bind.js"></script>')
    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    const again = await fetch(`${up.api}/bind`, {
      headers: { 'if-none-match': etag ?? '' },
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')

    const script = await fetch(`${up.api}/assets/bind.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    )
    expect(script.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    expect((await script.text()).length).toBeGreaterThan(2_000)
    const css = await fetch(`${up.api}/assets/bind.css`)
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')

    const doc = (await (await fetch(`${up.api}/openapi.json`)).json()) as {
      paths: Record<string, unknown>
    }
    expect(
      Object.keys(doc.paths).filter(
        (p) => p.startsWith('/bind') || p.startsWith('/assets'),
      ),
    ).toEqual([])
  }, 60_000)

  it('binds all four venues, creates an API key and shows its secret once', async () => {
    const wallet = newWallet()
    const index = await fund(wallet)
    const { page, bw, problems } = await openPage(wallet)
    const w = bw as BrowserWallet
    await page.screenshot({ path: join(ARTIFACTS, 'bind-start.png') })

    await page.getByRole('button', { name: 'Connect wallet' }).click()
    await expect
      .poll(() => page.locator('#wallet-status').textContent())
      .toBe(`Connected: ${wallet.address.toLowerCase()}`)

    await page
      .getByRole('button', { name: 'Look up my Lighter accounts' })
      .click()
    await page.locator('#account-lighter:enabled').waitFor()
    expect(await page.locator('#account-lighter').inputValue()).toBe(
      String(index.lighter),
    )
    expect(await page.locator('#account-lighter-mainnet').inputValue()).toBe(
      String(index['lighter-mainnet']),
    )
    await expect
      .poll(() => page.locator('#note-lighter').textContent())
      .toBe(`your account is #${index.lighter}`)

    // the person declines Aster's approval once, then signs when asked again
    let asterAsked = 0
    const isAster = (c: WalletCall) =>
      c.method === 'eth_signTypedData_v4' &&
      String(c.params[1]).includes('AsterSignTransaction')
    w.decline = (c) => isAster(c) && ++asterAsked === 1
    let cardShot = false
    w.beforeSign = async (c) => {
      if (cardShot || c.method !== 'eth_signTypedData_v4') return
      cardShot = true
      await page.locator('#sign-card h3').waitFor()
      await page.screenshot({
        path: join(ARTIFACTS, 'bind-sign.png'),
        fullPage: true,
      })
    }

    await page.getByRole('button', { name: 'Bind selected venues' }).click()
    await page.locator('#sign-card .declined').waitFor({ timeout: 30_000 })
    expect(await page.locator('#sign-card h3').textContent()).toBe(
      'Aster: approve a trading agent',
    )
    expect(await page.locator('#sign-card .declined').textContent()).toContain(
      'You declined this signature',
    )
    expect(await page.locator(row('aster', 'awaiting_signature')).count()).toBe(
      1,
    )
    await page.getByRole('button', { name: 'Ask again' }).click()

    for (const venue of VENUES) {
      await page.locator(row(venue, 'bound')).waitFor({ timeout: 60_000 })
    }
    expect(await boundVenues(wallet)).toEqual([...VENUES].sort())

    // the wallet sat on Ethereum (1): Hyperliquid signed there, Aster asked
    // to switch to its chain (56); both with the EIP712Domain type added
    const typed = w.calls
      .filter((c) => c.method === 'eth_signTypedData_v4')
      .map((c) => JSON.parse(String(c.params[1])))
    const domainOf = (name: string) =>
      typed.find((t) => t.domain.name === name)?.domain.chainId
    expect(domainOf('HyperliquidSignTransaction')).toBe(1)
    expect(domainOf('AsterSignTransaction')).toBe(56)
    expect(w.calls).toContainEqual({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x38' }],
    })
    for (const t of typed) {
      expect(t.types.EIP712Domain.map((f: { name: string }) => f.name)).toEqual(
        ['name', 'version', 'chainId', 'verifyingContract'],
      )
    }

    await page.locator('#key-step').waitFor()
    await page.locator('#max-size').fill('5000')
    await page.locator('#key-label').fill('browser')
    await page.getByRole('button', { name: 'Create API key' }).click()
    await page.locator('#secret-box').waitFor()
    const secret = (await page.locator('#secret').textContent()) ?? ''
    expect(secret).toMatch(/^dn_local_[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/)
    expect(await page.locator('#secret-box').textContent()).toContain(
      'it is shown only this once',
    )
    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await expect
      .poll(() => page.locator('#copy-status').textContent())
      .toBe('Copied.')
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
    await page.screenshot({
      path: join(ARTIFACTS, 'bind-done.png'),
      fullPage: true,
    })

    // the key works: an authenticated read with it succeeds
    const tasks = await fetch(`${up.api}/v1/delta-neutral/tasks`, {
      headers: { authorization: `Bearer ${secret}` },
    })
    expect(tasks.status).toBe(200)
    const keys = await fetch(`${up.api}/v1/positions`, {
      headers: { authorization: `Bearer ${secret}` },
    })
    expect(keys.status).toBe(200)

    // the page keeps nothing: no storage, no cookie, and hiding forgets it
    expect(
      await page.evaluate(
        '[localStorage.length, sessionStorage.length, document.cookie]',
      ),
    ).toEqual([0, 0, ''])
    await page.getByRole('button', { name: 'I saved it, hide it' }).click()
    expect(await page.locator('#secret').textContent()).toBe('')
    expect(await page.content()).not.toContain(secret.split('.')[1])

    // binding again signs only the prepare: every venue is already bound
    const typedBefore = w.calls.filter(
      (c) => c.method === 'eth_signTypedData_v4',
    ).length
    await page.getByRole('button', { name: 'Bind selected venues' }).click()
    for (const venue of VENUES) {
      await page
        .locator(row(venue, 'already_bound'))
        .waitFor({ timeout: 30_000 })
    }
    expect(
      w.calls.filter((c) => c.method === 'eth_signTypedData_v4'),
    ).toHaveLength(typedBefore)
    expect(problems).toEqual([])
  }, 120_000)

  it('a declined signature shows what happened and binds nothing', async () => {
    const wallet = newWallet()
    await fund(wallet)
    const { page, bw, problems } = await openPage(wallet)
    const w = bw as BrowserWallet
    w.decline = (c) => c.method === 'eth_signTypedData_v4'
    await page.getByRole('button', { name: 'Connect wallet' }).click()
    await page.locator('#venue-step').waitFor()
    for (const v of ['lighter', 'lighter-mainnet']) {
      await page.locator(`input[name="venue"][value="${v}"]`).uncheck()
    }
    await page.getByRole('button', { name: 'Bind selected venues' }).click()
    await page.locator('#sign-card .declined').waitFor({ timeout: 30_000 })
    expect(await page.locator('#sign-card .declined').textContent()).toContain(
      'You declined this signature in your wallet',
    )
    await page.screenshot({
      path: join(ARTIFACTS, 'bind-declined.png'),
      fullPage: true,
    })
    await page.getByRole('button', { name: 'Stop' }).click()
    await expect
      .poll(() => page.locator('#alert').textContent())
      .toContain(
        'You declined a signature, so binding stopped and nothing was bound',
      )
    for (const v of ['hl', 'aster']) {
      expect(await page.locator(row(v, 'stopped')).count(), v).toBe(1)
    }
    // nothing was submitted: the service bound nothing
    expect(
      w.calls.filter((c) => c.method === 'eth_signTypedData_v4'),
    ).toHaveLength(1)
    expect(await boundVenues(wallet)).toEqual([])
    expect(await page.locator('#key-step').isVisible()).toBe(false)
    expect(problems).toEqual([])
  }, 60_000)

  it('an API error is shown with its message and code; no Lighter account is said so', async () => {
    const wallet = newWallet() // never funded: no account on any venue
    const { page, problems } = await openPage(wallet)
    await page.getByRole('button', { name: 'Connect wallet' }).click()
    await page.locator('#venue-step').waitFor()
    await page
      .getByRole('button', { name: 'Look up my Lighter accounts' })
      .click()
    await expect
      .poll(() => page.locator('#note-lighter').textContent())
      .toBe('no account for this address: deposit on Lighter first')
    for (const v of ['lighter', 'lighter-mainnet']) {
      expect(
        await page.locator(`input[name="venue"][value="${v}"]`).isChecked(),
      ).toBe(false)
    }
    await page.getByRole('button', { name: 'Bind selected venues' }).click()
    await expect
      .poll(() => page.locator('#alert').textContent())
      .toMatch(
        /\(code venue_account_not_found, HTTP 422\)\. The venue has no account/,
      )
    expect(await page.locator('#alert').textContent()).toMatch(/^hl /)
    for (const v of ['hl', 'aster']) {
      expect(await page.locator(row(v, 'failed')).count(), v).toBe(1)
    }
    await page.screenshot({
      path: join(ARTIFACTS, 'bind-api-error.png'),
      fullPage: true,
    })
    expect(await boundVenues(wallet)).toEqual([])
    // the browser itself logs the refused prepare; nothing else went wrong
    expect(problems).toEqual([
      'console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ])
  }, 60_000)

  it('without a browser wallet it says so', async () => {
    const { page, problems } = await openPage()
    await expect
      .poll(() => page.locator('#alert').textContent())
      .toContain('No browser wallet found')
    await page.getByRole('button', { name: 'Connect wallet' }).click()
    expect(await page.locator('#alert').textContent()).toContain(
      'No browser wallet found',
    )
    expect(await page.locator('#venue-step').isVisible()).toBe(false)
    await page.screenshot({ path: join(ARTIFACTS, 'bind-no-wallet.png') })
    expect(problems).toEqual([])
  }, 30_000)
})
