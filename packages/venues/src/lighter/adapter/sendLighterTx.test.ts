import { describe, expect, it } from 'vitest'
import { createLighterNonceManager } from './createLighterNonceManager.js'
import type { LighterAdapterContext } from './lighterAdapterContext.js'
import type { LighterSigningKey } from './lighterCredential.js'
import { sendLighterTx } from './sendLighterTx.js'

const key = {
  accountIndex: 7,
  apiKeyIndex: 3,
  l1Address: '0x00000000000000000000000000000000000000aa',
} as LighterSigningKey

/** A context whose budget reservations the test settles one by one. */
function context() {
  const reservations: {
    resolve(): void
    reject(e: Error): void
    maxWaitMs: number | undefined
  }[] = []
  const sent: { nonce: number; prepaid: boolean }[] = []
  const ctx = {
    clock: { now: () => Date.UTC(2030, 0, 1) },
    nonces: createLighterNonceManager(),
    nonceRetries: 0,
    authToken: () => ({ token: 't', l1Address: key.l1Address }),
    transport: {
      reserveSendTx: (_l1: string, maxWaitMs?: number) =>
        new Promise<void>((resolve, reject) =>
          reservations.push({ resolve, reject, maxWaitMs }),
        ),
      get: async () => ({ nonce: 40 }),
      sendTx: async (
        _t: number,
        info: string,
        _l1: string,
        prepaid = false,
      ) => {
        sent.push({ nonce: JSON.parse(info).nonce, prepaid })
        return { code: 200, tx_hash: `h${info}` }
      },
    },
  } as unknown as LighterAdapterContext
  const build = (nonce: number) => ({
    txType: 14,
    txInfo: JSON.stringify({ nonce }),
  })
  return { ctx, reservations, sent, build }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

describe('sendLighterTx', () => {
  it('waits for budget outside the nonce lock: a send still waiting holds no later send of its key', async () => {
    const { ctx, reservations, sent, build } = context()
    const first = sendLighterTx(ctx, key, build as never)
    const second = sendLighterTx(ctx, key, build as never)
    await flush()
    expect(reservations).toHaveLength(2)
    // the second's budget comes first: it goes without waiting for the first
    reservations[1]?.resolve()
    await second
    expect(sent).toEqual([{ nonce: 40, prepaid: true }])
    // the first's budget never comes: it fails unsent, its nonce unused
    reservations[0]?.reject(new Error('budget spent'))
    await expect(first).rejects.toThrow('budget spent')
    const third = sendLighterTx(ctx, key, build as never)
    await flush()
    reservations[2]?.resolve()
    await third
    expect(sent.map((s) => s.nonce)).toEqual([40, 41])
  })

  it("waits for budget no longer than the send's window: a tx it no longer covers is not sent", async () => {
    const { ctx, reservations, build } = context()
    const now = ctx.clock.now()
    void sendLighterTx(ctx, key, build as never, now + 6_000).catch(() => {})
    void sendLighterTx(ctx, key, build as never).catch(() => {})
    void sendLighterTx(ctx, key, build as never, now - 1).catch(() => {})
    await flush()
    expect(reservations.map((r) => r.maxWaitMs)).toEqual([6_000, undefined, 0])
  })
})
