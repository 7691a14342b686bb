import { dec, VenueRejectedError } from '@dn/core'
import { marketOfAsset } from './hlDexes.js'
import type { HlFakeState } from './hlFakeState.js'

type Json = Record<string, unknown>

const ok = { status: 'ok', response: { type: 'default' } }
const err = (response: string) => ({ status: 'err', response })
const bad = (field: string) =>
  err(`Failed to deserialize the JSON body into the target type: ${field}`)

/**
 * Answers a verified `updateLeverage` (`{asset, isCross, leverage}`) or
 * `updateIsolatedMargin` (`{asset, isBuy, ntli}`, `ntli` in micro-USD, 1e6
 * = $1, negative to remove). Both go to the engine, which keeps leverage
 * and margin mode per user and market and reserves margin with them
 * (`sim/setSimLeverage.ts`, `sim/adjustSimIsolatedMargin.ts`); its
 * refusals come back as the venue's top-level `{status:'err'}` (leverage
 * words from `sim/venueStyle.ts`). Answers `{type:'default'}` as nktkas
 * types both.
 */
export function updateHlLeverage(
  state: HlFakeState,
  user: string,
  action: Json,
): unknown {
  const rules = marketOfAsset(state, action.asset)
  if (!rules) return err('Asset not found.')
  try {
    if (action.type === 'updateLeverage') {
      const { isCross, leverage } = action
      if (typeof isCross !== 'boolean') return bad('isCross')
      if (typeof leverage !== 'number' || !Number.isSafeInteger(leverage)) {
        return bad('leverage')
      }
      state.exchange.setLeverage(
        user,
        rules.symbol,
        leverage,
        isCross ? 'cross' : 'isolated',
      )
      return ok
    }
    const ntli = action.ntli
    if (typeof ntli !== 'number' || !Number.isSafeInteger(ntli)) {
      return bad('ntli')
    }
    state.exchange.adjustIsolatedMargin(
      user,
      rules.symbol,
      dec(ntli).div(1_000_000),
    )
    return ok
  } catch (e) {
    if (e instanceof VenueRejectedError) return err(e.reason)
    throw e
  }
}
