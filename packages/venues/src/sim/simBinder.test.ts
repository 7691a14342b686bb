import {
  type BindingConfig,
  type SignRequest,
  type VenueId,
  type VenueTarget,
  VenueUnavailableError,
} from '@dn/core'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  TEST_OWNER,
  walletSign,
  withMessageField,
} from '../binding/walletTestKit.js'
import { changePubKeyL1Message } from '../lighter/signer/changePubKey.js'
import { generateLighterKeyPair } from '../lighter/signer/lighterKeys.js'
import {
  type ChangePubKeyMessageInput,
  createSimBinder,
  type SimBinderOptions,
} from './simBinder.js'
import { createSimExchange } from './simExchange.js'
import { T0 } from './simTestKit.js'

const OWNER = TEST_OWNER.toLowerCase()
const STRANGER = '0x00000000000000000000000000000000000000a1'
const BUILDER = '0x00000000000000000000000000000000000000b1'
const CONFIG: BindingConfig = {
  feeApproval: true,
  builderAddress: BUILDER,
  builderName: 'dn',
  lighterTestnet: false,
}

const hex16 = (n: number) => `0x${n.toString(16).padStart(16, '0')}`
/** Stand-ins for the Lighter signer (not its crypto). */
const fakeKeys = () => {
  let n = 0
  return () => {
    n++
    return {
      privateKey: `0x${n.toString(16).padStart(80, '0')}`,
      publicKey: `0x${(1000 + n).toString(16).padStart(80, '0')}`,
    }
  }
}
const fakeMessage = (p: ChangePubKeyMessageInput) =>
  [
    'Register Lighter Account',
    '',
    `pubkey: ${p.publicKey}`,
    `nonce: ${hex16(p.nonce)}`,
    `account index: ${hex16(p.accountIndex)}`,
    `api key index: ${hex16(p.apiKeyIndex)}`,
    'Only sign this message for a trusted client!',
  ].join('\n')

function kit(
  venue: VenueId,
  over: Partial<SimBinderOptions> & { fund?: boolean } = {},
) {
  let now = T0
  const clock = { now: () => now }
  const exchange = createSimExchange({ venue, seed: 1, clock })
  exchange.faucet(STRANGER, 100)
  const accountIndex =
    over.fund === false ? -1 : exchange.faucet(OWNER, 1_000).accountIndex
  const binder = createSimBinder({
    venue,
    exchange,
    clock,
    config: CONFIG,
    lighterKeys: fakeKeys(),
    changePubKeyMessage: fakeMessage,
    ...over,
  })
  const target: VenueTarget =
    venue === 'lighter' || venue === 'lighter-mainnet'
      ? { venue, accountIndex }
      : { venue }
  return {
    exchange,
    binder,
    target,
    accountIndex,
    advance: (ms: number) => {
      now += ms
    },
  }
}

async function signAll(requests: readonly SignRequest[]) {
  const signatures: Record<string, string> = {}
  for (const r of requests) signatures[r.requestId] = await walletSign(r)
  return signatures
}

/** prepare → sign every request → verify → complete */
async function bind(
  k: ReturnType<typeof kit>,
  config: BindingConfig = CONFIG,
  sign = signAll,
) {
  const prepared = await k.binder.prepare(OWNER, k.target, config)
  const signatures = await sign(prepared.requests)
  for (const r of prepared.requests) {
    expect(await k.binder.verify(r, signatures[r.requestId] ?? '', OWNER)).toBe(
      true,
    )
  }
  const entry = { target: k.target, signatures, ...prepared }
  return { prepared, entry, result: await k.binder.complete(OWNER, entry) }
}

describe('hl', () => {
  test('end to end: agent + builder fee, bound, usable', async () => {
    const k = kit('hl')
    expect(await k.binder.findAccount(OWNER, k.target)).toBe('found')
    expect(
      await k.binder.findAccount(
        '0x00000000000000000000000000000000000000c1',
        k.target,
      ),
    ).toBe('missing')
    const { prepared, result } = await bind(k)
    expect(prepared.requests.map((r) => r.requestId)).toEqual([
      'hl:approveAgent',
      'hl:approveBuilderFee',
    ])
    expect(privateKeyToAccount(prepared.secret as `0x${string}`).address).toBe(
      prepared.credentialRef,
    )
    const [agent, fee] = prepared.requests
    expect(agent?.payload).toMatchObject({
      domain: { chainId: 42161 },
      message: {
        type: 'approveAgent',
        signatureChainId: '0xa4b1',
        hyperliquidChain: 'Mainnet',
        agentAddress: prepared.credentialRef.toLowerCase(),
        agentName: 'dn',
        nonce: T0,
      },
    })
    expect(fee?.payload).toMatchObject({
      message: { maxFeeRate: '0.1%', builder: BUILDER, nonce: T0 + 1 },
    })
    expect(prepared.context).toMatchObject({
      nonce: String(T0),
      agentName: 'dn',
    })
    expect(result).toEqual({ outcome: 'bound' })
    expect(await k.binder.isUsable(OWNER, prepared.credentialRef)).toBe(true)
    expect(await k.binder.isUsable(OWNER, STRANGER)).toBe(false)
    expect(k.binder.authorizations(OWNER)).toEqual([
      expect.objectContaining({ agentName: 'dn', feeApproved: true }),
    ])
  })

  test('no fee approval: only the agent; the target chain id is used', async () => {
    const k = kit('hl')
    const prepared = await k.binder.prepare(
      OWNER,
      { venue: 'hl', signatureChainId: 421614 },
      { ...CONFIG, feeApproval: false },
    )
    expect(prepared.requests.map((r) => r.requestId)).toEqual([
      'hl:approveAgent',
    ])
    expect(prepared.requests[0]?.payload).toMatchObject({
      domain: { chainId: 421614 },
      message: { signatureChainId: '0x66eee' },
    })
  })

  test('rebinding replaces the agent of the same name; complete is idempotent', async () => {
    const k = kit('hl')
    const first = await bind(k)
    const second = await bind(k)
    expect(second.result).toEqual({ outcome: 'bound' })
    expect(await k.binder.isUsable(OWNER, first.prepared.credentialRef)).toBe(
      false,
    )
    expect(await k.binder.isUsable(OWNER, second.prepared.credentialRef)).toBe(
      true,
    )
    expect(await k.binder.complete(OWNER, second.entry)).toEqual({
      outcome: 'bound',
    })
    expect(k.binder.authorizations(OWNER)).toHaveLength(1)
  })

  test('a signature by another wallet: verify false, complete invalid_signature, not retryable', async () => {
    const k = kit('hl')
    const other = privateKeyToAccount(`0x${'22'.repeat(32)}`)
    const prepared = await k.binder.prepare(OWNER, k.target, CONFIG)
    const fee = prepared.requests[1] as SignRequest
    const signatures = await signAll(prepared.requests)
    signatures[fee.requestId] = await walletSign(fee, other)
    expect(
      await k.binder.verify(fee, signatures[fee.requestId] ?? '', OWNER),
    ).toBe(false)
    expect(
      await k.binder.complete(OWNER, {
        target: k.target,
        signatures,
        ...prepared,
      }),
    ).toMatchObject({
      outcome: 'failed',
      code: 'invalid_signature',
      retryable: false,
    })
    expect(k.binder.authorizations(OWNER)).toEqual([])
  })

  test('a tampered payload, a missing signature, a foreign chain label', async () => {
    const k = kit('hl')
    const prepared = await k.binder.prepare(OWNER, k.target, CONFIG)
    const signatures = await signAll(prepared.requests)
    const [agent, fee] = prepared.requests as [SignRequest, SignRequest]
    const entry = { target: k.target, signatures, ...prepared }
    expect(
      await k.binder.complete(OWNER, {
        ...entry,
        requests: [withMessageField(agent, 'agentName', 'evil'), fee],
      }),
    ).toMatchObject({ outcome: 'failed', code: 'invalid_signature' })
    expect(
      await k.binder.complete(OWNER, {
        ...entry,
        signatures: { 'hl:approveAgent': signatures['hl:approveAgent'] ?? '' },
      }),
    ).toMatchObject({ outcome: 'failed', code: 'missing_signature' })
    // signed correctly by the owner, but for Testnet
    const testnet = withMessageField(agent, 'hyperliquidChain', 'Testnet')
    expect(
      await k.binder.complete(OWNER, {
        ...entry,
        requests: [testnet, fee],
        signatures: {
          ...signatures,
          'hl:approveAgent': await walletSign(testnet),
        },
      }),
    ).toMatchObject({ outcome: 'failed', code: 'invalid_signature' })
    expect(k.binder.authorizations(OWNER)).toEqual([])
  })

  test('the account must still exist at completion; revoked agents are unusable', async () => {
    const k = kit('hl', { fund: false })
    const prepared = await k.binder.prepare(OWNER, k.target, CONFIG)
    const signatures = await signAll(prepared.requests)
    const entry = { target: k.target, signatures, ...prepared }
    expect(await k.binder.complete(OWNER, entry)).toMatchObject({
      outcome: 'failed',
      code: 'venue_account_not_found',
    })
    k.exchange.faucet(OWNER, 10)
    expect(await k.binder.complete(OWNER, entry)).toEqual({ outcome: 'bound' })
    expect(k.binder.revoke(OWNER, prepared.credentialRef)).toBe(true)
    expect(await k.binder.isUsable(OWNER, prepared.credentialRef)).toBe(false)
  })

  test('outage: venue calls throw VenueUnavailableError', async () => {
    const k = kit('hl')
    const { entry } = await bind(k)
    k.exchange.setFaults({ outage: true })
    await expect(k.binder.findAccount(OWNER, k.target)).rejects.toBeInstanceOf(
      VenueUnavailableError,
    )
    await expect(k.binder.complete(OWNER, entry)).rejects.toBeInstanceOf(
      VenueUnavailableError,
    )
    await expect(
      k.binder.isUsable(OWNER, entry.credentialRef),
    ).rejects.toBeInstanceOf(VenueUnavailableError)
  })
})

describe('aster', () => {
  test('end to end: one approval with the builder embedded; expires', async () => {
    const k = kit('aster', { fund: false })
    expect(await k.binder.findAccount(OWNER, k.target)).toBe('found')
    const { prepared, result } = await bind(k)
    expect(prepared.requests.map((r) => r.requestId)).toEqual([
      'aster:approveAgent',
    ])
    const payload = prepared.requests[0]?.payload
    expect(payload).toMatchObject({
      domain: { name: 'AsterSignTransaction', chainId: 56 },
      message: {
        AgentAddress: prepared.credentialRef,
        Builder: '0x00000000000000000000000000000000000000B1',
        MaxFeeRate: '0.001',
        BuilderName: 'dn',
        AsterChain: 'Mainnet',
        User: TEST_OWNER,
        Nonce: T0 * 1000,
        Expired: T0 + 365 * 86_400_000,
      },
    })
    expect(result).toEqual({ outcome: 'bound' })
    expect(await k.binder.isUsable(OWNER, prepared.credentialRef)).toBe(true)
    k.advance(365 * 86_400_000)
    expect(await k.binder.isUsable(OWNER, prepared.credentialRef)).toBe(false)
  })

  test('testnet venue refuses a Mainnet approval', async () => {
    const k = kit('aster', { testnet: true })
    const prepared = await k.binder.prepare(OWNER, k.target, CONFIG)
    expect(prepared.requests[0]?.payload).toMatchObject({
      message: { AsterChain: 'Testnet' },
    })
    const request = withMessageField(
      prepared.requests[0] as SignRequest,
      'AsterChain',
      'Mainnet',
    )
    expect(
      await k.binder.complete(OWNER, {
        ...prepared,
        target: k.target,
        requests: [request],
        signatures: { 'aster:approveAgent': await walletSign(request) },
      }),
    ).toMatchObject({ outcome: 'failed', code: 'invalid_signature' })
  })
})

describe.each(['lighter', 'lighter-mainnet'] as const)('%s', (venue) => {
  test('findAccount: owner and index', async () => {
    const k = kit(venue)
    expect(await k.binder.findAccount(OWNER, k.target)).toBe('found')
    expect(
      await k.binder.findAccount(OWNER, {
        venue,
        accountIndex: k.accountIndex + 7,
      }),
    ).toBe('not_owned')
    expect(
      await k.binder.findAccount(
        '0x00000000000000000000000000000000000000c1',
        k.target,
      ),
    ).toBe('missing')
  })

  test('end to end: key in slot 5, registration + consent, bound, next slot 6', async () => {
    const k = kit(venue)
    const { prepared, result } = await bind(k)
    const index = venue === 'lighter' ? 994 : 735705
    const chain = venue === 'lighter' ? '466324' : '304'
    expect(prepared.requests.map((r) => r.requestId)).toEqual([
      `${venue}:changePubKey`,
      `${venue}:approveIntegrator`,
    ])
    expect(prepared.credentialRef).toBe(`${k.accountIndex}:5`)
    expect(prepared.secret).toBe(`0x${'1'.padStart(80, '0')}`)
    expect(prepared.context).toMatchObject({
      accountIndex: String(k.accountIndex),
      apiKeyIndex: '5',
      nonce: '0',
      signerChainId: chain,
      integratorIndex: String(index),
    })
    expect(prepared.requests[0]?.payload).toEqual({
      message: fakeMessage({
        publicKey: `0x${(1001).toString(16).padStart(80, '0')}`,
        nonce: 0,
        accountIndex: k.accountIndex,
        apiKeyIndex: 5,
      }),
    })
    expect(prepared.requests[1]?.payload).toEqual({
      message: `Approve zero-fee integrator (all maker and taker fee caps 0) owner=${OWNER} venue=${venue} integratorIndex=${index} nonce=${T0} timestamp=${T0 / 1000}`,
    })
    expect(result).toEqual({ outcome: 'bound' })
    expect(await k.binder.isUsable(OWNER, prepared.credentialRef)).toBe(true)
    const again = await bind(k)
    expect(again.prepared.credentialRef).toBe(`${k.accountIndex}:6`)
    expect(again.result).toEqual({ outcome: 'bound' })
  })

  test('a binding prepared for another signer chain fails invalid_signing_chain', async () => {
    const k = kit(venue)
    const { result } = await bind(k, { ...CONFIG, lighterTestnet: true })
    expect(result).toMatchObject({
      outcome: 'failed',
      code: 'invalid_signing_chain',
      retryable: false,
    })
    expect(k.binder.authorizations(OWNER)).toEqual([])
  })

  test('testnet deployment accepts chain 300; no fee approval: registration only', async () => {
    const k = kit(venue, { config: { ...CONFIG, lighterTestnet: true } })
    const { prepared, result } = await bind(k, {
      ...CONFIG,
      feeApproval: false,
      lighterTestnet: true,
    })
    expect(prepared.requests.map((r) => r.action)).toEqual(['changePubKey'])
    expect(prepared.context.signerChainId).toBe('300')
    expect(result).toEqual({ outcome: 'bound' })
  })

  test('a registration message for another key fails; an account moved away is unusable', async () => {
    const k = kit(venue)
    const prepared = await k.binder.prepare(OWNER, k.target, CONFIG)
    const forged: SignRequest = {
      ...(prepared.requests[0] as SignRequest),
      method: 'personal_sign',
      payload: { message: 'Register Lighter Account\n\npubkey: 0xdead' },
    }
    const requests = [forged, ...prepared.requests.slice(1)]
    expect(
      await k.binder.complete(OWNER, {
        ...prepared,
        target: k.target,
        requests,
        signatures: await signAll(requests),
      }),
    ).toMatchObject({ outcome: 'failed', code: 'invalid_signature' })
    expect(
      await k.binder.complete(OWNER, {
        ...prepared,
        target: { venue, accountIndex: k.accountIndex + 1 },
        signatures: await signAll(prepared.requests),
      }),
    ).toMatchObject({ outcome: 'failed', code: 'account_not_owned' })
  })

  test('without the Lighter signer functions prepare says what is missing', async () => {
    const k = kit(venue, { lighterKeys: undefined })
    await expect(k.binder.prepare(OWNER, k.target, CONFIG)).rejects.toThrow(
      /lighterKeys/,
    )
  })
})

test('with the real Lighter signer functions injected', async () => {
  const k = kit('lighter', {
    lighterKeys: generateLighterKeyPair,
    changePubKeyMessage: changePubKeyL1Message,
  })
  const { prepared, result } = await bind(k)
  expect(prepared.requests[0]?.payload).toEqual({
    message: expect.stringMatching(
      /^Register Lighter Account\n\npubkey: 0x[0-9a-f]{80}\nnonce: 0x0{16}\n/,
    ),
  })
  expect(result).toEqual({ outcome: 'bound' })
})

test('the binder and the exchange must be the same venue', () => {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 1,
    clock: { now: () => T0 },
  })
  expect(() =>
    createSimBinder({ venue: 'aster', exchange, config: CONFIG }),
  ).toThrow(RangeError)
})
