import type { BindingConfig } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { createHyperliquidBinder } from './createHyperliquidBinder.js'

const config: BindingConfig = {
  feeApproval: true,
  builderAddress: '0x1111111111111111111111111111111111111111',
  builderName: 'dn',
  lighterTestnet: false,
}

describe('createHyperliquidBinder against the protocol fake', () => {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 5,
    clock: { now: () => Date.now() },
  })
  let fake: HyperliquidFake
  beforeAll(async () => {
    fake = await startHyperliquidFake({ exchange, port: 0 })
  })
  afterAll(() => fake.close())

  async function signAll(
    binder: ReturnType<typeof createHyperliquidBinder>,
    wallet: ReturnType<typeof privateKeyToAccount>,
  ) {
    const prepared = await binder.prepare(
      wallet.address.toLowerCase(),
      { venue: 'hl' },
      config,
    )
    const signatures: Record<string, string> = {}
    for (const r of prepared.requests) {
      if (r.method !== 'eth_signTypedData_v4')
        throw new Error('hl requests are typed data')
      signatures[r.requestId] = await wallet.signTypedData(
        r.payload as Parameters<typeof wallet.signTypedData>[0],
      )
    }
    return { prepared, signatures }
  }

  /** Completes a signed binding, as the worker does. */
  const complete = (
    binder: ReturnType<typeof createHyperliquidBinder>,
    owner: string,
    signed: Awaited<ReturnType<typeof signAll>>,
  ) =>
    binder.complete(owner, {
      target: { venue: 'hl' },
      ...signed.prepared,
      signatures: signed.signatures,
    })

  test('default: preflight, approve agent and builder fee, confirm, usable', async () => {
    const binder = createHyperliquidBinder({
      baseUrl: fake.url,
      isMainnet: true,
    })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    expect(await binder.findAccount(owner, { venue: 'hl' })).toBe('missing')
    exchange.faucet(owner, 10_000)
    expect(await binder.findAccount(owner, { venue: 'hl' })).toBe('found')
    const { prepared, signatures } = await signAll(binder, wallet)
    expect(prepared.requests.map((r) => r.requestId)).toEqual([
      'hl:approveAgent',
      'hl:approveBuilderFee',
    ])
    for (const r of prepared.requests)
      expect(
        await binder.verify(r, signatures[r.requestId] as string, owner),
      ).toBe(true)
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(false)
    const done = await complete(binder, owner, { prepared, signatures })
    expect(done, JSON.stringify(done)).toEqual({ outcome: 'bound' })
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(true)
    // completing again (a worker retry) is still bound, never a second agent
    expect(await complete(binder, owner, { prepared, signatures })).toEqual({
      outcome: 'bound',
    })
  })

  test('error: signatures by another wallet are refused by the venue', async () => {
    const binder = createHyperliquidBinder({
      baseUrl: fake.url,
      isMainnet: true,
    })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const thief = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    exchange.faucet(owner, 10_000)
    const { prepared, signatures } = await signAll(binder, thief)
    const r = prepared.requests[0]
    expect(
      r && (await binder.verify(r, signatures[r.requestId] as string, owner)),
    ).toBe(false)
    const done = await complete(binder, owner, { prepared, signatures })
    expect(done).toMatchObject({ outcome: 'failed', retryable: false })
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(false)
  })

  test("behavior: the preflight reads a funded owner's state alone (weight 2), and asks userRole only of an owner without margin", async () => {
    const reads: string[] = []
    const binder = createHyperliquidBinder({
      baseUrl: fake.url,
      isMainnet: true,
      fetchFn: async (input, init) => {
        const body = JSON.parse(String(init?.body ?? '{}'))
        reads.push(String(body.type ?? body.action?.type))
        return fetch(input, init)
      },
    })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    expect(await binder.findAccount(owner, { venue: 'hl' })).toBe('missing')
    expect(reads).toEqual(['clearinghouseState', 'userRole'])
    reads.length = 0
    exchange.faucet(owner, 10_000)
    expect(await binder.findAccount(owner, { venue: 'hl' })).toBe('found')
    expect(reads).toEqual(['clearinghouseState'])
    // binding: two approvals answered ok, no read to confirm them
    const { prepared, signatures } = await signAll(binder, wallet)
    reads.length = 0
    expect(await complete(binder, owner, { prepared, signatures })).toEqual({
      outcome: 'bound',
    })
    expect(reads).toEqual(['approveAgent', 'approveBuilderFee'])
    // the agent just approved holds no margin: userRole tells it apart
    reads.length = 0
    expect(
      await binder.findAccount(prepared.credentialRef.toLowerCase(), {
        venue: 'hl',
      }),
    ).toBe('not_owned')
    expect(reads).toEqual(['clearinghouseState', 'userRole'])
  })
})
