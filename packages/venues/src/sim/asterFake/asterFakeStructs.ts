type Pairs = readonly (readonly [string, string])[]

/**
 * The fixed field order of each main-wallet (dynamic-struct) action, by
 * posted name. The venue types these structs in this order whatever order
 * the form body carries them in, so a client may post `nonce` and `user`
 * first (ccxt does) as long as it signed this order. Sources: the official
 * demo (asterdex/api-docs@265e024 `demo/aster-code.py`: each action's
 * parameters, then `asterChain`, `user`, `nonce`), ross-32/API-demo-node
 * `05_approveBuilder.js` ("must match Python demo.py order"), ccxt
 * `aster.ts` `sign()` (ApproveBuilder: Builder, MaxFeeRate, BuilderName,
 * AsterChain, User, Nonce), our binder's ApproveAgent table (aster.md
 * §3.3). Optional fields (an ApproveAgent's builder trio, an ipWhitelist)
 * are in the struct only when posted.
 */
const ASTER_STRUCT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ApproveAgent: [
    'agentName',
    'agentAddress',
    'ipWhitelist',
    'expired',
    'canSpotTrade',
    'canPerpTrade',
    'canWithdraw',
    'builder',
    'maxFeeRate',
    'builderName',
    'asterChain',
    'user',
    'nonce',
  ],
  UpdateAgent: [
    'agentAddress',
    'ipWhitelist',
    'canSpotTrade',
    'canPerpTrade',
    'canWithdraw',
    'asterChain',
    'user',
    'nonce',
  ],
  DelAgent: ['agentAddress', 'asterChain', 'user', 'nonce'],
  ApproveBuilder: [
    'builder',
    'maxFeeRate',
    'builderName',
    'asterChain',
    'user',
    'nonce',
  ],
  UpdateBuilder: ['builder', 'maxFeeRate', 'asterChain', 'user', 'nonce'],
  DelBuilder: ['builder', 'asterChain', 'user', 'nonce'],
}

/**
 * The posted parameters a struct signs, in the struct's fixed order;
 * parameters the struct has no field for (`signature`,
 * `signatureChainId`, anything else) are left out, as they are not signed.
 * @throws RangeError for a primary type the fake does not know
 */
export function inStructOrder(primaryType: string, pairs: Pairs): Pairs {
  const fields = ASTER_STRUCT_FIELDS[primaryType]
  if (!fields) throw new RangeError(`unknown struct ${primaryType}`)
  return fields.flatMap((name) => pairs.filter(([k]) => k === name))
}
