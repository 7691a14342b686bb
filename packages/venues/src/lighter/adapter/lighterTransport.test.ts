import {
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { describe, expect, test } from 'vitest'
import type { LighterTier } from '../limits/lighterLimits.js'
import { LighterRejectedError } from './lighterRejectedError.js'
import {
  createLighterBudget,
  createLighterTransport,
  lighterBudgetOf,
} from './lighterTransport.js'

type Answer = Response | Error
const OWNER = '0x14791697260E4c9A71f18484C9f997B308e59325'

function transport(answers: Answer[], tier?: LighterTier) {
  const seen: { url: string; init: RequestInit | undefined }[] = []
  const fetchFn = (async (url: string, init?: RequestInit) => {
    seen.push({ url, init })
    const next = answers.shift()
    if (!next) throw new Error('no more answers')
    if (next instanceof Error) throw next
    return next
  }) as unknown as typeof fetch
  const budget = createLighterBudget({ share: 1, tier })
  return {
    t: createLighterTransport({
      baseUrl: 'http://venue.test/',
      fetchFn,
      timeout: 1000,
      budget,
    }),
    seen,
    budget,
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status })
const refused = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: { code: 'ECONNREFUSED' },
  })

describe('createLighterTransport', () => {
  test('default: GET with query and auth header; sendTx as a form', async () => {
    const { t, seen } = transport([
      json(200, { code: 200, nonce: 4 }),
      json(200, { code: 200, tx_hash: 'ab' }),
    ])
    expect(
      await t.get(
        'nextNonce',
        { account_index: 1, api_key_index: 5 },
        { token: 'tok', l1Address: OWNER },
      ),
    ).toEqual({ code: 200, nonce: 4 })
    expect(seen[0]?.url).toBe(
      'http://venue.test/api/v1/nextNonce?account_index=1&api_key_index=5',
    )
    expect(seen[0]?.init?.headers).toEqual({ authorization: 'tok' })
    await t.sendTx(14, '{"A":1}', OWNER)
    expect(seen[1]?.url).toBe('http://venue.test/api/v1/sendTx')
    expect(String(seen[1]?.init?.body)).toBe(
      'tx_type=14&tx_info=%7B%22A%22%3A1%7D',
    )
  })

  test('error: {code, message} is a LighterRejectedError (a VenueRejectedError)', async () => {
    const { t } = transport([
      json(400, { code: 21728, message: 'client order index already exists' }),
    ])
    const err = await t.sendTx(14, '{}', OWNER).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LighterRejectedError)
    expect(err).toBeInstanceOf(VenueRejectedError)
    expect((err as LighterRejectedError).lighterCode).toBe(21728)
    expect((err as LighterRejectedError).reason).toContain(
      'client order index already exists',
    )
  })

  test('behavior: a rate limit (429 or 23000) fails unsent and closes the budget', async () => {
    for (const answer of [
      new Response('', { status: 429 }),
      json(400, { code: 23000, message: 'Too Many Requests!' }),
    ]) {
      const { t, seen, budget } = transport([answer])
      const err = await t.sendTx(14, '{}', OWNER).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(VenueUnavailableError)
      expect(err).not.toBeInstanceOf(UncertainSubmissionError)
      expect(seen).toHaveLength(1)
      // it names no wait: a first refusal holds 2 s (rateLimitBackoff)
      expect(String(err)).toMatch(/backing off 2 s$/)
      expect(budget.heldOff()).not.toBeNull()
    }
  })

  test('behavior: an authenticated read spends the account limit, an anonymous one the IP limit', async () => {
    const { t, budget } = transport([
      json(200, { code: 200 }),
      json(200, { code: 200 }),
    ])
    await t.get('account', {}, { token: 'tok', l1Address: OWNER })
    await t.get('orderBookDetails', {})
    const buckets = budget.usage().map((u) => u.bucket)
    expect(buckets.some((b) => b.includes(OWNER.toLowerCase()))).toBe(true)
    expect(buckets.some((b) => !b.includes('|'))).toBe(true)
  })

  test('behavior: a tx is weighed by the tier of the budget it spends', async () => {
    // the venue counts a builder-tier tx in its own bucket: so must we
    const builder = transport(
      [json(200, { code: 200, tx_hash: 'ab' })],
      'builder',
    )
    await builder.t.sendTx(14, '{}', OWNER)
    expect(builder.budget.usage().map((u) => [u.limit, u.used])).toEqual([
      ['tx', 1],
    ])
    const standard = transport([json(200, { code: 200, tx_hash: 'ab' })])
    await standard.t.sendTx(14, '{}', OWNER)
    expect(standard.budget.usage().map((u) => u.limit)).toEqual(['l1'])
  })

  test('error: a tier given beside a budget of another tier is refused', () => {
    const clock = { now: () => 0 }
    const premium = createLighterBudget({ tier: 'premium' })
    expect(lighterBudgetOf({ tier: 'premium', budget: premium }, clock)).toBe(
      premium,
    )
    expect(lighterBudgetOf({ tier: 'plus' }, clock).tier).toBe('plus')
    expect(lighterBudgetOf({}, clock).tier).toBe('standard')
    expect(() =>
      lighterBudgetOf({ tier: 'builder', budget: premium }, clock),
    ).toThrow(/tier builder given with a budget for the premium tier/)
  })

  test('error: after sending, a tx is uncertain and a read unavailable', async () => {
    const reset = Object.assign(new TypeError('fetch failed'), {
      cause: { code: 'UND_ERR_SOCKET' },
    })
    for (const answer of [json(503, {}), reset]) {
      await expect(
        transport([answer]).t.sendTx(14, '{}', OWNER),
      ).rejects.toBeInstanceOf(UncertainSubmissionError)
    }
    await expect(
      transport([json(502, {})]).t.get('account', {}),
    ).rejects.toBeInstanceOf(VenueUnavailableError)
  })

  test('error: a refused connection sent nothing', async () => {
    await expect(
      transport([refused()]).t.sendTx(14, '{}', OWNER),
    ).rejects.toBeInstanceOf(VenueUnavailableError)
  })
})
