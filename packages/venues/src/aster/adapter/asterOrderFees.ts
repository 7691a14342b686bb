import { type Decimal, dec, decString } from '@dn/core'
import { decField, isObj } from '../../wire/jsonFields.js'

/** Stablecoins Aster margins in, counted one to one as USD. */
const USD_ASSETS = new Set(['USDT', 'USDC', 'USD1', 'USDF'])

/**
 * The commission one order paid, from its `GET /fapi/v3/userTrades?orderId`
 * rows: their sum when every row pays in a USD stablecoin and the rows'
 * sizes add up to `filledBase`; null otherwise (a fee paid in another
 * asset, or a fill not listed yet). undefined when the answer is not the
 * venue's trade list.
 */
export function parseAsterOrderFees(
  raw: unknown,
  orderId: string,
  filledBase: string,
): string | null | undefined {
  if (!Array.isArray(raw)) return undefined
  let size: Decimal = dec(0)
  let fee: Decimal | null = dec(0)
  for (const t of raw) {
    if (!isObj(t)) return undefined
    if (String(t.orderId) !== orderId) continue
    const qty = decField(t.qty)
    const commission = decField(t.commission)
    if (qty === null || commission === null) return undefined
    size = size.add(qty)
    fee =
      fee !== null && USD_ASSETS.has(String(t.commissionAsset))
        ? fee.add(commission)
        : null
  }
  if (!size.eq(dec(filledBase)) || fee === null) return null
  return decString(fee)
}
