import type { SignRequest } from '@dn/core'
import {
  getAddress,
  type Hex,
  recoverMessageAddress,
  recoverTypedDataAddress,
  type TypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allTargets,
  type BindingBed,
  BUILDER,
  FEE_CONFIG,
  prepared,
  read,
  signRequest,
  startBindingBed,
  statuses,
  submit,
} from './support/bindingFixtures.js'
import { dialects } from './support/testService.js'
import { newWallet } from './support/wallet.js'

type Typed = Extract<SignRequest, { method: 'eth_signTypedData_v4' }>
const ZERO = '0x0000000000000000000000000000000000000000'

/** `name type` of each field of the primary type, in the returned order. */
const fields = (r: Typed) =>
  (r.payload.types[r.payload.primaryType] ?? []).map(
    (f) => `${f.name} ${f.type}`,
  )
const byId = (batch: any, id: string) =>
  (batch.signRequests as SignRequest[]).find((r) => r.requestId === id)
const typed = (batch: any, id: string) => {
  const r = byId(batch, id)
  expect(r?.method, id).toBe('eth_signTypedData_v4')
  return r as Typed
}

const HL_AGENT = [
  'hyperliquidChain string',
  'agentAddress address',
  'agentName string',
  'nonce uint64',
]
const HL_BUILDER_FEE = [
  'hyperliquidChain string',
  'maxFeeRate string',
  'builder address',
  'nonce uint64',
]
const ASTER_AGENT = [
  'AgentName string',
  'AgentAddress string',
  'IpWhitelist string',
  'Expired uint256',
  'CanSpotTrade bool',
  'CanPerpTrade bool',
  'CanWithdraw bool',
]
const ASTER_BUILDER = [
  'Builder string',
  'MaxFeeRate string',
  'BuilderName string',
]
const ASTER_TAIL = ['AsterChain string', 'User string', 'Nonce uint256']

describe.each(dialects())('binding sign requests (%s)', (dialect) => {
  let bed: BindingBed
  let plain: BindingBed
  beforeAll(async () => {
    bed = await startBindingBed({ dialect })
    plain = await startBindingBed({
      dialect,
      config: { ...FEE_CONFIG, feeApproval: false },
    })
  })
  afterAll(async () => {
    await bed?.close()
    await plain?.close()
  })

  it('every request recovers to the owner from exactly the returned payload', async () => {
    const wallet = newWallet()
    const other = newWallet()
    const batch = await prepared(
      bed,
      wallet,
      allTargets(bed, wallet.address.toLowerCase()),
    )
    expect(batch.signRequests).toHaveLength(7)
    for (const r of batch.signRequests as SignRequest[]) {
      const signature = await signRequest(wallet, r)
      if (r.method === 'personal_sign') {
        expect(
          await recoverMessageAddress({
            message: r.payload.message,
            signature,
          }),
        ).toBe(wallet.address)
        continue
      }
      const { domain, types, primaryType, message } = r.payload
      expect(Object.keys(types)).toEqual([primaryType])
      const recover = (m: Record<string, unknown>, sig: Hex) =>
        recoverTypedDataAddress({
          domain,
          types: types as TypedData,
          primaryType,
          message: m,
          signature: sig,
        })
      expect(await recover(message, signature), r.requestId).toBe(
        wallet.address,
      )
      const otherSig = await signRequest(other, r)
      expect(await recover(message, otherSig)).toBe(other.address)
      // the nonce is part of what is signed
      const nonceKey = primaryType === 'ApproveAgent' ? 'Nonce' : 'nonce'
      const changed = { ...message, [nonceKey]: Number(message[nonceKey]) + 1 }
      expect(await recover(changed, signature)).not.toBe(wallet.address)
    }
  })

  it('hl requests: contract field order, chain label and signatureChainId', async () => {
    const wallet = newWallet()
    const batch = await prepared(bed, wallet, [
      allTargets(bed, wallet.address.toLowerCase())[0],
    ])
    const agent = typed(batch, 'hl:approveAgent')
    expect(agent.payload.primaryType).toBe(
      'HyperliquidTransaction:ApproveAgent',
    )
    expect(fields(agent)).toEqual(HL_AGENT)
    expect(agent.payload.domain).toEqual({
      name: 'HyperliquidSignTransaction',
      version: '1',
      chainId: 42161,
      verifyingContract: ZERO,
    })
    expect(agent.payload.message).toMatchObject({
      type: 'approveAgent',
      signatureChainId: '0xa4b1',
      hyperliquidChain: 'Mainnet',
      agentAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      agentName: expect.any(String),
      nonce: expect.any(Number),
    })
    const fee = typed(batch, 'hl:approveBuilderFee')
    expect(fee.payload.primaryType).toBe(
      'HyperliquidTransaction:ApproveBuilderFee',
    )
    expect(fields(fee)).toEqual(HL_BUILDER_FEE)
    expect(fee.payload.domain).toEqual(agent.payload.domain)
    expect(fee.payload.message).toMatchObject({
      type: 'approveBuilderFee',
      signatureChainId: '0xa4b1',
      hyperliquidChain: 'Mainnet',
      maxFeeRate: '0.1%',
      builder: BUILDER,
    })
    expect(fee.payload.message.nonce).not.toBe(agent.payload.message.nonce)
  })

  it('hl signatureChainId moves the signing domain, and the venue accepts it', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    bed.venues.faucet('hl', owner)
    const batch = await prepared(bed, wallet, [
      { venue: 'hl', signatureChainId: 421614 },
    ])
    for (const id of ['hl:approveAgent', 'hl:approveBuilderFee']) {
      const r = typed(batch, id)
      expect(r.payload.domain.chainId).toBe(421614)
      expect(r.payload.message.signatureChainId).toBe('0x66eee')
    }
    const sigs = []
    for (const r of batch.signRequests as SignRequest[]) {
      sigs.push({
        requestId: r.requestId,
        signature: await signRequest(wallet, r),
      })
    }
    expect((await submit(bed, batch.bindingId, sigs)).status).toBe(202)
    await bed.drain()
    expect(statuses((await read(bed, wallet, batch.bindingId)).body)).toEqual({
      hl: 'bound',
    })
  })

  it('aster ApproveAgent with fee approval: the 13 fields in contract order', async () => {
    const wallet = newWallet()
    const batch = await prepared(bed, wallet, [{ venue: 'aster' }])
    const r = typed(batch, 'aster:approveAgent')
    expect(r.payload.primaryType).toBe('ApproveAgent')
    expect(fields(r)).toEqual([...ASTER_AGENT, ...ASTER_BUILDER, ...ASTER_TAIL])
    const m = r.payload.message
    expect(m).toMatchObject({
      IpWhitelist: '',
      CanSpotTrade: false,
      CanPerpTrade: true,
      CanWithdraw: false,
      Builder: getAddress(BUILDER),
      MaxFeeRate: '0.001',
      BuilderName: FEE_CONFIG.builderName,
      AsterChain: 'Mainnet',
      User: wallet.address,
    })
    expect(Object.keys(m).sort()).toEqual(
      fields(r)
        .map((f) => f.split(' ')[0])
        .sort(),
    )
    expect(Number(m.Expired)).toBeGreaterThan(bed.clock.now())
    expect(String(m.AgentAddress)).toBe(getAddress(String(m.AgentAddress)))
  })

  it('lighter requests: registration message and zero-fee integrator consent', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const [, , lighter, mainnet] = allTargets(bed, owner)
    const batch = await prepared(bed, wallet, [lighter, mainnet])
    const hex = (n: number) => `0x${n.toString(16).padStart(16, '0')}`
    for (const [target, integrator] of [
      [lighter, 994],
      [mainnet, 735705],
    ] as const) {
      const venue = target?.venue
      const change = byId(batch, `${venue}:changePubKey`)
      const consent = byId(batch, `${venue}:approveIntegrator`)
      expect(change?.method).toBe('personal_sign')
      expect(consent?.method).toBe('personal_sign')
      const lines = String(change?.payload.message).split('\n')
      expect(lines.length).toBeGreaterThan(3)
      expect(lines).toContainEqual(
        expect.stringMatching(/^pubkey: 0x[0-9a-f]+$/),
      )
      expect(lines).toContain(`nonce: ${hex(0)}`)
      expect(lines).toContain(
        `account index: ${hex(target?.accountIndex ?? -1)}`,
      )
      const slotLine = lines.find((l) => l.startsWith('api key index: '))
      const slot = Number.parseInt(String(slotLine?.slice(15)), 16)
      expect(slotLine).toMatch(/^api key index: 0x[0-9a-f]{16}$/)
      expect(slot).toBeGreaterThanOrEqual(5)
      expect(slot).toBeLessThanOrEqual(254)
      expect(slot).not.toBe(157)
      const m =
        /^Approve zero-fee .* owner=(\S+) venue=(\S+) integratorIndex=(\d+) nonce=(\S+) timestamp=(\d+)$/.exec(
          String(consent?.payload.message),
        )
      expect(m?.slice(1, 4)).toEqual([owner, venue, String(integrator)])
      expect(Number(m?.[5])).toBe(bed.nowSec())
    }
  })

  it('without fee approval: no builder fee, Aster without builder fields, Lighter without consent', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const batch = await prepared(plain, wallet, allTargets(plain, owner))
    const ids = (batch.signRequests as SignRequest[])
      .map((r) => r.requestId)
      .sort()
    expect(ids).toEqual([
      'aster:approveAgent',
      'hl:approveAgent',
      'lighter-mainnet:changePubKey',
      'lighter:changePubKey',
    ])
    expect(fields(typed(batch, 'hl:approveAgent'))).toEqual(HL_AGENT)
    const aster = typed(batch, 'aster:approveAgent')
    expect(fields(aster)).toEqual([...ASTER_AGENT, ...ASTER_TAIL])
    expect(aster.payload.message).not.toHaveProperty('Builder')
    const sigs = []
    for (const r of batch.signRequests as SignRequest[]) {
      sigs.push({
        requestId: r.requestId,
        signature: await signRequest(wallet, r),
      })
    }
    expect((await submit(plain, batch.bindingId, sigs)).status).toBe(202)
    await plain.drain()
    const got = await read(plain, wallet, batch.bindingId)
    expect(got.body.status).toBe('bound')
    for (const v of ['hl', 'aster', 'lighter', 'lighter-mainnet'] as const) {
      expect(plain.binders[v].authorizations(owner)[0]?.feeApproved).toBe(false)
    }
  })
})
