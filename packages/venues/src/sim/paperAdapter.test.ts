import {
  UncertainSubmissionError,
  VenueAccountNotFoundError,
  type VenueCredential,
  type VenueId,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { describe, expect, test } from 'vitest'
import { createPaperAdapter } from './paperAdapter.js'
import { OWNER, simTestKit, T0 } from './simTestKit.js'

const cred = (
  venue: VenueId,
  accountIndex: string | null = null,
  owner = OWNER,
): VenueCredential => ({
  owner,
  venue,
  accountIndex,
  credentialRef: null,
  secret: null,
})

function kit(venue: VenueId = 'hl') {
  const k = simTestKit({ venue })
  return { ...k, adapter: createPaperAdapter(k.ex) }
}

describe('port', () => {
  test('default: rules, quote, place, order, positions, cancel, funding', async () => {
    const { adapter, req, ex, setNow } = kit()
    expect(adapter.venue).toBe('hl')
    expect(await adapter.rules('BTC')).toMatchObject({ symbol: 'BTC' })
    expect(await adapter.rules('BTCUSDT')).toBeUndefined()
    const q = await adapter.quote('BTC')
    expect(q).toMatchObject({ venue: 'hl', symbol: 'BTC', mark: '100000' })
    const placed = await adapter.place(cred('hl'), req({ size: '0.1' }))
    expect(placed.state).toBe('filled')
    const found = await adapter.order(cred('hl'), 'BTC', placed.clientOrderId)
    expect(found).toEqual(placed)
    expect(await adapter.order(cred('hl'), 'BTC', 'unknown')).toBeNull()
    expect(
      await adapter.order(cred('hl'), 'ETH', placed.clientOrderId),
    ).toBeNull()
    await adapter.cancel(cred('hl'), 'BTC', placed.clientOrderId) // final: ok
    await expect(adapter.cancel(cred('hl'), 'BTC', 'unknown')).rejects.toThrow(
      VenueRejectedError,
    )
    expect(await adapter.positions(cred('hl'))).toEqual(ex.positions(OWNER))
    setNow(T0 + 3_600_000)
    const since = new Date(T0).toISOString()
    expect(await adapter.funding(cred('hl'), 'BTC', since)).toHaveLength(1)
  })

  test('error: unknown owner or a credential of another venue', async () => {
    const { adapter, req } = kit()
    const stranger = cred(
      'hl',
      null,
      '0x00000000000000000000000000000000000000ff',
    )
    await expect(adapter.place(stranger, req())).rejects.toThrow(
      VenueAccountNotFoundError,
    )
    await expect(adapter.positions(stranger)).rejects.toThrow(
      VenueAccountNotFoundError,
    )
    await expect(adapter.place(cred('aster'), req())).rejects.toThrow(
      VenueAccountNotFoundError,
    )
  })

  test('error: Lighter checks the account index against the faucet', async () => {
    for (const venue of ['lighter', 'lighter-mainnet'] as const) {
      const { adapter, req, ex } = kit(venue)
      const index = String(ex.accountIndex(OWNER))
      expect(index).toBe('1')
      for (const wrong of ['2', null, ' 1']) {
        await expect(adapter.place(cred(venue, wrong), req())).rejects.toThrow(
          VenueAccountNotFoundError,
        )
      }
      expect(ex.stats().placed).toBe(0)
      const ok = await adapter.place(cred(venue, index), req())
      expect(ok.state).toBe('filled')
    }
  })
})

describe('faults', () => {
  test('error: outage fails before anything happens', async () => {
    const { adapter, req, ex } = kit()
    ex.setFaults({ outage: true })
    const r = req()
    await expect(adapter.place(cred('hl'), r)).rejects.toThrow(
      VenueUnavailableError,
    )
    await expect(adapter.quote('BTC')).rejects.toThrow(VenueUnavailableError)
    await expect(
      adapter.order(cred('hl'), 'BTC', r.clientOrderId),
    ).rejects.toThrow(VenueUnavailableError)
    expect(ex.stats().placed).toBe(0)
    expect(ex.order(OWNER, r.clientOrderId)).toBeNull()
    ex.setFaults({})
    expect((await adapter.place(cred('hl'), r)).state).toBe('filled')
  })

  test('error: a simulated reject places nothing', async () => {
    const { adapter, req, ex } = kit()
    ex.setFaults({ rejectRate: 1 })
    const r = req()
    await expect(adapter.place(cred('hl'), r)).rejects.toThrow(
      VenueRejectedError,
    )
    expect(ex.order(OWNER, r.clientOrderId)).toBeNull()
    expect(ex.stats().byClientOrderId.get(r.clientOrderId)).toBeUndefined()
  })

  test('error: timeout after accept leaves the order findable by cloid', async () => {
    const { adapter, req, ex } = kit('aster')
    ex.setFaults({ timeoutAfterAcceptRate: 1 })
    const r = req({ market: 'BTCUSDT', size: '0.1' })
    await expect(adapter.place(cred('aster'), r)).rejects.toThrow(
      UncertainSubmissionError,
    )
    ex.setFaults({})
    const found = await adapter.order(cred('aster'), 'BTCUSDT', r.clientOrderId)
    expect(found).toMatchObject({ state: 'filled', venueStatus: 'FILLED' })
    await expect(adapter.place(cred('aster'), r)).rejects.toThrow(
      'duplicate clientOrderId',
    )
    expect(ex.stats().byClientOrderId.get(r.clientOrderId)).toBe(1)
    expect(ex.positions(OWNER)[0]?.size).toBe('0.1')
  })

  test('behavior: latency delays the answer', async () => {
    const { adapter, ex } = kit()
    ex.setFaults({ latencyMs: 60 })
    const started = performance.now()
    await adapter.quote('BTC')
    expect(performance.now() - started).toBeGreaterThanOrEqual(50)
  })

  test('behavior: fault rolls are seeded', async () => {
    const outcomes = async () => {
      const { adapter, req, ex } = kit()
      ex.setFaults({ rejectRate: 0.5 })
      const seen: string[] = []
      for (let i = 0; i < 20; i++) {
        seen.push(
          await adapter.place(cred('hl'), req()).then(
            () => 'ok',
            (e: Error) => e.name,
          ),
        )
      }
      return seen
    }
    const first = await outcomes()
    expect(new Set(first).size).toBe(2)
    expect(await outcomes()).toEqual(first)
  })
})
