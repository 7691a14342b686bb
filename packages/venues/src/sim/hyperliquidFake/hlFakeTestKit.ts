import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hlApproveBuilderFeeRequest } from '../../hyperliquid/binding/approveAgentRequest.js'
import { signL1Action } from '../../hyperliquid/signing/l1Signature.js'
import {
  type HlTypedDataTypes,
  type HlUserSignedActionObject,
  signUserSignedAction,
} from '../../hyperliquid/signing/userSignedAction.js'
import { createSimExchange, type SimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from './startHyperliquidFake.js'

/** The funded user's key and address (lowercase) in `hlFakeTestKit`. */
const HL_KIT_USER_KEY: Hex = `0x${'11'.repeat(32)}`
export const HL_KIT_USER =
  privateKeyToAccount(HL_KIT_USER_KEY).address.toLowerCase()

// biome-ignore lint/suspicious/noExplicitAny: tests read any JSON answer
type Json = any

/** What `hlFakeTestKit` hands a test. */
export interface HlFakeTestKit {
  readonly fake: HyperliquidFake
  readonly exchange: SimExchange
  /** POSTs `body` to `/info`: HTTP status and parsed body */
  info(body: object): Promise<{ status: number; body: Json }>
  /** signs `action` as an L1 action with `key` and POSTs it to `/exchange` */
  l1(action: object, key?: Hex): Promise<Json>
  /** the user approves `builder` for at most `maxFeeRate` (e.g. `0.01%`) */
  approveBuilder(builder: string, maxFeeRate: string): Promise<Json>
  /** moves the fake's and the engine's clock forward */
  advance(ms: number): void
}

/**
 * Test support: a Hyperliquid fake (mainnet) over an `hl` exchange on a
 * clock the test moves, with HL_KIT_USER funded with $100,000. The caller
 * closes `fake` (afterEach/afterAll).
 * @param referralCodes codes that exist for `setReferrer` (code → referrer)
 * @internal
 */
export async function hlFakeTestKit(
  referralCodes?: Readonly<Record<string, string>>,
): Promise<HlFakeTestKit> {
  let now = T0 + 500
  let seq = 0
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 7,
    clock: { now: () => now },
  })
  exchange.faucet(HL_KIT_USER, 100_000)
  const fake = await startHyperliquidFake({
    exchange,
    now: () => now,
    rateLimits: false,
    referralCodes,
  })
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const text = await res.text()
    let parsed: Json = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // a 422 answers plain text, as the venue does
    }
    return { status: res.status, body: parsed }
  }
  const nextNonce = () => now + ++seq
  return {
    fake,
    exchange,
    info: (body) => post('/info', body),
    l1: async (action, key = HL_KIT_USER_KEY) => {
      const nonce = nextNonce()
      const signature = await signL1Action({
        privateKey: key,
        action,
        vaultAddress: null,
        nonce,
        isMainnet: true,
      })
      const res = await post('/exchange', {
        action,
        nonce,
        signature,
        vaultAddress: null,
      })
      return res.body
    },
    approveBuilder: async (builder, maxFeeRate) => {
      const nonce = nextNonce()
      const { payload } = hlApproveBuilderFeeRequest({
        builder,
        maxFeeRate,
        nonce,
      })
      const action = payload.message as unknown as HlUserSignedActionObject
      const signature = await signUserSignedAction({
        privateKey: HL_KIT_USER_KEY,
        action,
        types: payload.types as HlTypedDataTypes,
        primaryType: payload.primaryType as `HyperliquidTransaction:${string}`,
        isMainnet: true,
      })
      return (await post('/exchange', { action, nonce, signature })).body
    },
    advance: (ms) => {
      now += ms
    },
  }
}
