import { deriveKey } from '@dn/cli'
import {
  createAesGcmSecrets,
  INTERACTIVE_MAX_WAIT_MS,
  type VenueBinder,
  type VenueId,
} from '@dn/core'
import { createHlBudget, createHyperliquidBinder } from '@dn/venues'
import {
  createSimBinders,
  createSimVenues,
  type HyperliquidFake,
  startHyperliquidFake,
} from '@dn/venues/sim'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG, PREPARE } from './support/bindingFixtures.js'
import {
  call,
  startTestService,
  type TestService,
} from './support/testService.js'
import { newNonce, newWallet, signWalletMessage } from './support/wallet.js'

const MASTER = Buffer.alloc(32, 13)
/** Hyperliquid's published per-IP weight a minute, and its window */
const HL_WEIGHT = 1200
const WINDOW_MS = 60_000
/** what dn counts a spend for: the window and the 2 s delivery margin */
const HELD_MS = WINDOW_MS + 2_000

/**
 * The bound a binding preflight waits for Hyperliquid's budget, through the
 * HTTP API, the real Hyperliquid binder and its protocol fake. The budget's
 * clock is moved to place its spends in the window: room that comes within
 * INTERACTIVE_MAX_WAIT_MS is waited for; room further off is answered at
 * once, 503 `venue_account_check_unavailable` with its `{error, code}` body
 * and a Retry-After saying when the room comes (waiting the bound first
 * would not change the answer: nothing leaves the window sooner).
 */
describe('binding preflight: the wait for venue budget (issue 31)', () => {
  let svc: TestService
  let fake: HyperliquidFake
  let shift = 0
  const clock = { now: () => Date.now() + shift }
  // dn's interactive ceiling: 0.9 of its half of the published weight
  const ceiling = HL_WEIGHT * 0.5 * 0.9
  const budget = createHlBudget({ clock })
  const sim = createSimVenues({ seed: 41 })

  beforeAll(async () => {
    fake = await startHyperliquidFake({ exchange: sim.exchanges.hl })
    const binders: Record<VenueId, VenueBinder> = {
      ...createSimBinders(sim, FEE_CONFIG),
      hl: createHyperliquidBinder({
        baseUrl: fake.url,
        isMainnet: true,
        budget,
      }),
    }
    svc = await startTestService({
      dialect: 'sqlite',
      rateLimit: 100_000,
      markets: sim.marketData,
      binding: {
        binders,
        secrets: createAesGcmSecrets(deriveKey(MASTER, 'venue-credentials')),
        config: FEE_CONFIG,
      },
    })
  })
  afterAll(async () => {
    await svc?.close()
    await fake?.close()
  })

  /**
   * A window of its own whose spends leave it `roomInMs` from now: the
   * budget is full to its interactive ceiling (a userRole, weight 60, does
   * not fit) until then.
   */
  async function spentFor(roomInMs: number): Promise<void> {
    shift += 2 * HELD_MS
    await budget.acquire(
      [{ limit: 'weight', bucket: 'weight', weight: ceiling }],
      'order',
    )
    shift += HELD_MS - roomInMs
  }

  async function prepareHl(wallet: PrivateKeyAccount) {
    const owner = wallet.address.toLowerCase()
    sim.faucet('hl', owner)
    const venues = [{ venue: 'hl' }]
    const nonce = newNonce()
    const expiresAt = Math.floor(Date.now() / 1000) + 120
    const signature = await signWalletMessage(wallet, 'prepare', {
      owner,
      venues,
      nonce,
      expiresAt,
    })
    const started = Date.now()
    const res = await call(svc, 'POST', PREPARE, {
      body: { owner, venues, authorization: { nonce, expiresAt, signature } },
      idem: null,
    })
    return { ...res, tookMs: Date.now() - started }
  }

  test('behavior: room within the bound is waited for, and the preflight is served', async () => {
    await spentFor(2_000)
    const res = await prepareHl(newWallet())
    expect(res.status, res.text).toBe(200)
    expect(res.body.results).toEqual([
      expect.objectContaining({ venue: 'hl', status: 'awaiting_signatures' }),
    ])
    expect(res.tookMs).toBeGreaterThanOrEqual(1_500)
    expect(res.tookMs).toBeLessThan(INTERACTIVE_MAX_WAIT_MS)
  })

  test('error: room just past the bound: 503 at once, Retry-After when it comes', async () => {
    await spentFor(INTERACTIVE_MAX_WAIT_MS + 1_500)
    const res = await prepareHl(newWallet())
    expect(res.status, res.text).toBe(503)
    expect(res.body).toEqual({
      code: 'venue_account_check_unavailable',
      error:
        'hl account lookup failed; this does not mean the account is missing, retry later',
    })
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(6)
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(7)
    expect(res.tookMs).toBeLessThan(1_000)
  })

  test('error: a budget spent for the whole window: 503 at once, Retry-After ~62 s; served once it passes', async () => {
    await spentFor(HELD_MS)
    const wallet = newWallet()
    const res = await prepareHl(wallet)
    expect(res.status, res.text).toBe(503)
    expect(res.body.code).toBe('venue_account_check_unavailable')
    expect(Object.keys(res.body).sort()).toEqual(['code', 'error'])
    const after = Number(res.headers.get('retry-after'))
    expect(after).toBeGreaterThanOrEqual(61)
    expect(after).toBeLessThanOrEqual(62)
    expect(res.tookMs).toBeLessThan(1_000)
    // as a caller that waits Retry-After would find it
    shift += after * 1000
    const again = await prepareHl(wallet)
    expect(again.status, again.text).toBe(200)
    expect(again.tookMs).toBeLessThan(1_000)
  })
})
