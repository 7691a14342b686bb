import type { BindingConfig, SignRequest } from '@dn/core'
import type { TypedDataDefinition } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type AsterFake,
  startAsterFake,
} from '../../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { createAsterAdapter } from '../adapter/createAsterAdapter.js'
import { createAsterBinder } from './createAsterBinder.js'

const BUILDER = '0x1111111111111111111111111111111111111111'
const config: BindingConfig = {
  feeApproval: true,
  builderAddress: BUILDER,
  builderName: 'dn',
  lighterTestnet: false,
}

const sign = (
  wallet: ReturnType<typeof privateKeyToAccount>,
  requests: readonly SignRequest[],
) =>
  Promise.all(
    requests.map(async (r) => {
      if (r.method !== 'eth_signTypedData_v4') throw new TypeError(r.method)
      // from the JSON a client receives, as a browser wallet would
      const payload = JSON.parse(JSON.stringify(r.payload))
      return [
        r.requestId,
        await wallet.signTypedData(payload as TypedDataDefinition),
      ] as const
    }),
  ).then(Object.fromEntries) as Promise<Record<string, string>>

describe('createAsterBinder against the protocol fake', () => {
  let now = Date.now()
  const clock = { now: () => ++now }
  const exchange = createSimExchange({ venue: 'aster', seed: 7, clock })
  let fake: AsterFake
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0, now: clock.now })
  })
  afterAll(() => fake.close())

  test('default: no preflight, approve agent + builder, confirm, then the adapter trades with the stored key', async () => {
    const binder = createAsterBinder({ baseUrl: fake.url, clock })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    // Aster has no account look-up: found even before any deposit
    expect(await binder.findAccount(owner, { venue: 'aster' })).toBe('found')
    const prepared = await binder.prepare(owner, { venue: 'aster' }, config)
    expect(prepared.requests.map((r) => r.requestId)).toEqual([
      'aster:approveAgent',
    ])
    const request = prepared.requests[0] as SignRequest
    expect(
      request.method === 'eth_signTypedData_v4' &&
        request.payload.types.ApproveAgent?.length,
    ).toBe(13)
    const signatures = await sign(wallet, prepared.requests)
    expect(
      await binder.verify(
        request,
        signatures['aster:approveAgent'] as string,
        owner,
      ),
    ).toBe(true)
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(false)
    const entry = {
      target: { venue: 'aster' as const },
      ...prepared,
      signatures,
    }
    expect(await binder.complete(owner, entry)).toEqual({ outcome: 'bound' })
    expect(fake.agents(owner).map((a) => a.agentAddress)).toEqual([
      prepared.credentialRef,
    ])
    expect(fake.builderCap(owner, BUILDER)).toBe('0.001')
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(true)
    // a worker retry: the spent nonce is refused, the agent is listed
    expect(await binder.complete(owner, entry)).toEqual({ outcome: 'bound' })
    // another process checks with the stored secret
    const other = createAsterBinder({
      baseUrl: fake.url,
      clock,
      agentSecret: async (o, ref) =>
        o === owner && ref === prepared.credentialRef ? prepared.secret : null,
    })
    expect(await other.isUsable(owner, prepared.credentialRef)).toBe(true)
    expect(
      await createAsterBinder({ baseUrl: fake.url, clock }).isUsable(
        owner,
        prepared.credentialRef,
      ),
    ).toBe(false)
    // the stored agent key trades
    exchange.faucet(owner, 10_000)
    const adapter = createAsterAdapter({ baseUrl: fake.url, clock })
    const mark = Number((await adapter.quote('ETHUSDT')).mark)
    const placed = await adapter.place(
      {
        owner,
        venue: 'aster',
        accountIndex: null,
        credentialRef: prepared.credentialRef,
        secret: prepared.secret,
      },
      {
        market: 'ETHUSDT',
        side: 'long',
        size: '0.01',
        price: (Math.ceil(mark * 101) / 100).toFixed(2),
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: `0x${'ab'.repeat(16)}`,
      },
    )
    expect(placed.state).toBe('filled')
  })

  test('behavior: an expired agent is no longer usable', async () => {
    const binder = createAsterBinder({
      baseUrl: fake.url,
      clock,
      agentTtlMs: 60_000,
    })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    const prepared = await binder.prepare(owner, { venue: 'aster' }, config)
    const signatures = await sign(wallet, prepared.requests)
    expect(
      await binder.complete(owner, {
        target: { venue: 'aster' },
        ...prepared,
        signatures,
      }),
    ).toEqual({ outcome: 'bound' })
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(true)
    now += 61_000
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(false)
  })

  test('error: a signature by another wallet fails, no agent is approved', async () => {
    const binder = createAsterBinder({ baseUrl: fake.url, clock })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const thief = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    const prepared = await binder.prepare(owner, { venue: 'aster' }, config)
    const signatures = await sign(thief, prepared.requests)
    expect(
      await binder.complete(owner, {
        target: { venue: 'aster' },
        ...prepared,
        signatures,
      }),
    ).toMatchObject({
      outcome: 'failed',
      code: 'invalid_signature',
      retryable: false,
    })
    expect(fake.agents(owner)).toEqual([])
    expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(false)
  })

  test('error: the venue refuses an approval for another chain', async () => {
    // a testnet binding sent to a mainnet venue: signed right, refused there
    const binder = createAsterBinder({
      baseUrl: fake.url,
      clock,
      testnet: true,
    })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    const prepared = await binder.prepare(owner, { venue: 'aster' }, config)
    const done = await binder.complete(owner, {
      target: { venue: 'aster' },
      ...prepared,
      signatures: await sign(wallet, prepared.requests),
    })
    expect(done).toMatchObject({
      outcome: 'failed',
      code: 'venue_rejected',
      retryable: false,
    })
    expect(done.outcome === 'failed' && done.message).toMatch(/asterChain/)
    expect(fake.agents(owner)).toEqual([])
  })

  test('error: a missing signature fails before anything is sent', async () => {
    const binder = createAsterBinder({ baseUrl: fake.url, clock })
    const owner = privateKeyToAccount(generatePrivateKey()).address
    const prepared = await binder.prepare(owner, { venue: 'aster' }, config)
    expect(
      await binder.complete(owner, {
        target: { venue: 'aster' },
        ...prepared,
        signatures: {},
      }),
    ).toMatchObject({ outcome: 'failed', code: 'missing_signature' })
  })
})
