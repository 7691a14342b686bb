import { type Hex, isAddress, recoverTypedDataAddress } from 'viem'
import {
  ASTER_AGENT_CHAIN_ID,
  recoverAsterMessageSigner,
} from '../../aster/signing/asterMessage.js'
import { managementTypedData } from '../../aster/signing/managementTypedData.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { type AsterFakeState, liveAgent, useNonce } from './asterFakeState.js'
import { inStructOrder } from './asterFakeStructs.js'

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

const invalidSignature = () =>
  new AsterFakeError(-1022, 'Signature for this request is not valid.')

/** A received parameter string split into the signed part and signature. */
interface SignedString {
  /** the exact bytes that were signed: the string minus `&signature=…` */
  readonly msg: string
  readonly signature: string
  /** decoded parameters in received order, signature excluded */
  readonly pairs: readonly (readonly [string, string])[]
}

function decode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '))
}

/**
 * Splits a query or form body into the signed string and the signature,
 * keeping the other parameters byte for byte in their order.
 * @throws AsterFakeError -1102 without a signature, -1022 when malformed
 */
function splitSigned(raw: string): SignedString {
  const parts = raw.length === 0 ? [] : raw.split('&')
  const sig = parts.filter((p) => p.startsWith('signature='))
  if (sig.length === 0) throw mandatory('signature')
  if (sig.length > 1) throw invalidSignature()
  const rest = parts.filter((p) => !p.startsWith('signature='))
  let signature: string
  let pairs: [string, string][]
  try {
    signature = decode((sig[0] as string).slice('signature='.length))
    pairs = rest.map((p) => {
      const i = p.indexOf('=')
      return i < 0
        ? [decode(p), '']
        : [decode(p.slice(0, i)), decode(p.slice(i + 1))]
    })
  } catch {
    throw invalidSignature()
  }
  if (!SIGNATURE.test(signature)) throw invalidSignature()
  return { msg: rest.join('&'), signature, pairs }
}

/** The single value of `name`, or undefined. */
export function param(
  pairs: readonly (readonly [string, string])[],
  name: string,
): string | undefined {
  return pairs.find(([k]) => k === name)?.[1]
}

/**
 * Authenticates an agent-signed (TRADE / USER_DATA) request: recovers the
 * `Message` signature over the exact received string, requires it to be
 * `signer`, requires `signer` to be `user` or an approved, unexpired agent
 * of `user` allowed to trade perps, then spends the nonce.
 * @returns the user (lowercase) and the decoded parameters
 * @throws AsterFakeError -1102, -1022, -2015 or -4225
 */
export async function authenticate(state: AsterFakeState, raw: string) {
  const signed = splitSigned(raw)
  const user = param(signed.pairs, 'user')
  const signer = param(signed.pairs, 'signer')
  const nonce = param(signed.pairs, 'nonce')
  if (!user || !isAddress(user, { strict: false })) throw mandatory('user')
  if (!signer || !isAddress(signer, { strict: false }))
    throw mandatory('signer')
  if (!nonce) throw mandatory('nonce')
  let recovered: string
  try {
    recovered = await recoverAsterMessageSigner({
      msg: signed.msg,
      signature: signed.signature as Hex,
      chainId: state.testnet
        ? ASTER_AGENT_CHAIN_ID.testnet
        : ASTER_AGENT_CHAIN_ID.mainnet,
    })
  } catch {
    throw invalidSignature()
  }
  if (recovered.toLowerCase() !== signer.toLowerCase()) throw invalidSignature()
  const self = signer.toLowerCase() === user.toLowerCase()
  const agent = self ? undefined : liveAgent(state, user, signer)
  if (!self && !agent?.canPerpTrade) {
    throw new AsterFakeError(
      -2015,
      'Invalid API-key, IP, or permissions for action.',
      401,
    )
  }
  useNonce(state, user, nonce)
  return { user: user.toLowerCase(), pairs: signed.pairs }
}

/**
 * Authenticates a main-wallet action (ApproveAgent, …): rebuilds the
 * dynamic EIP-712 struct from the posted parameters in the struct's fixed
 * field order (`asterFakeStructs.ts`), whatever order they were posted in
 * (domain chain id = `signatureChainId`), requires it to recover to `user`
 * and `asterChain` to be this venue's, then spends the nonce.
 * @throws AsterFakeError -1102, -1130, -1022 or -4225
 */
export async function authenticateMain(
  state: AsterFakeState,
  raw: string,
  primaryType: string,
) {
  const signed = splitSigned(raw)
  const user = param(signed.pairs, 'user')
  const nonce = param(signed.pairs, 'nonce')
  const chainId = Number(param(signed.pairs, 'signatureChainId'))
  if (!user || !isAddress(user, { strict: false })) throw mandatory('user')
  if (!nonce) throw mandatory('nonce')
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    throw mandatory('signatureChainId')
  }
  const chain = state.testnet ? 'Testnet' : 'Mainnet'
  if (param(signed.pairs, 'asterChain') !== chain) {
    throw invalidParam('asterChain')
  }
  let recovered: string
  try {
    recovered = await recoverTypedDataAddress({
      ...managementTypedData(
        primaryType,
        inStructOrder(primaryType, signed.pairs),
        chainId,
      ),
      signature: signed.signature as Hex,
    })
  } catch {
    throw invalidSignature()
  }
  if (recovered.toLowerCase() !== user.toLowerCase()) throw invalidSignature()
  useNonce(state, user, nonce)
  return { user: user.toLowerCase(), pairs: signed.pairs }
}
