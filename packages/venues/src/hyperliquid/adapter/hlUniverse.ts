import {
  type Clock,
  createSharedRead,
  type RequestPriority,
  type VenueUnavailableError,
} from '@dn/core'
import { decField, isObj, unexpectedAnswer } from '../../wire/jsonFields.js'
import type { HlPost } from './hlTransport.js'

/** One listed perp, with its global asset id (what orders carry). */
export interface HlAsset {
  readonly asset: number
  readonly name: string
  readonly szDecimals: number
  readonly maxLeverage: number
}

interface HlAssetCtx {
  readonly markPx: string
  readonly funding: string
  readonly impactPxs: readonly [string, string] | null
}

interface HlMeta {
  readonly assets: ReadonlyMap<string, HlAsset>
  readonly ctxs: ReadonlyMap<string, HlAssetCtx>
}

/**
 * Hyperliquid's perp listings across dexes. The main dex (`""`) lists bare
 * coins at asset = index; each builder-deployed (HIP-3) dex lists
 * `<dex>:<COIN>` at asset = 100000 + 10000 × (its position in `perpDexs`,
 * main = 0) + index (docs `asset-ids`; python SDK `info.py`).
 */
interface HlUniverse {
  /** the listing of `symbol`, from a cache of at most `ttl` ms */
  asset(symbol: string): Promise<HlAsset | undefined>
  /** the main dex's listed symbols (builder dexes are not enumerated) */
  mainSymbols(): Promise<readonly string[]>
  /**
   * The context (mark, funding, impact prices) of `symbol` from one read
   * of its whole dex at most `maxAgeMs` old, shared by every caller; a
   * read it sends goes at `priority` (@default `urgent`)
   */
  ctx(
    symbol: string,
    maxAgeMs: number,
    priority?: RequestPriority,
  ): Promise<{ ctx: HlAssetCtx; at: number } | undefined>
  /**
   * The builder-deployed dexes this process has read markets of: where its
   * orders can have made positions (each dex's clearinghouse is a request
   * of its own, so not all of `perpDexs` is asked every time)
   */
  usedBuilderDexes(): readonly string[]
}

/** The dex a symbol is listed on: its prefix, or `""` for the main dex. */
function dexOf(symbol: string): string {
  const colon = symbol.indexOf(':')
  return colon < 0 ? '' : symbol.slice(0, colon)
}

export function createHlUniverse(
  post: HlPost,
  clock: Clock,
  ttl: number,
): HlUniverse {
  let dexes: { at: number; names: readonly string[] } | undefined

  async function builderDexes(): Promise<readonly string[]> {
    if (dexes && clock.now() - dexes.at < ttl) return dexes.names
    const raw = await post('/info', { type: 'perpDexs' }, 'read')
    if (!Array.isArray(raw)) throw badRead('perpDexs', raw)
    // position 0 is the main dex (null); names keep their positions
    const names = raw.map((d, i) =>
      i === 0 || !isObj(d) || typeof d.name !== 'string' ? '' : d.name,
    )
    dexes = { at: clock.now(), names }
    return names
  }

  const metas = createSharedRead(clock, load)
  const seen = new Set<string>()

  async function load(
    dex: string,
    priority: RequestPriority | undefined,
  ): Promise<HlMeta | undefined> {
    let offset = 0
    if (dex !== '') {
      const position = (await builderDexes()).indexOf(dex)
      if (position < 1) return undefined
      offset = 100_000 + position * 10_000
    }
    const raw = await post(
      '/info',
      dex === ''
        ? { type: 'metaAndAssetCtxs' }
        : { type: 'metaAndAssetCtxs', dex },
      'read',
      // one read per dex serves every quote and order price: bounded by
      // its age, it goes ahead of routine monitoring
      priority ?? 'urgent',
    )
    seen.add(dex)
    return parseMetaAndCtxs(raw, offset)
  }

  return {
    asset: async (symbol) =>
      (await metas.get(dexOf(symbol), ttl)).value?.assets.get(symbol),
    mainSymbols: async () => [
      ...((await metas.get('', ttl)).value?.assets.keys() ?? []),
    ],
    async ctx(symbol, maxAgeMs, priority) {
      const snap = await metas.get(dexOf(symbol), maxAgeMs, priority)
      const ctx = snap.value?.ctxs.get(symbol)
      return ctx && { ctx, at: snap.at }
    },
    usedBuilderDexes: () => [...seen].filter((d) => d !== ''),
  }
}

function badRead(what: string, raw: unknown): VenueUnavailableError {
  return unexpectedAnswer('hyperliquid', what, raw)
}

function parseMetaAndCtxs(raw: unknown, offset: number): HlMeta {
  if (!Array.isArray(raw) || raw.length < 2) {
    throw badRead('metaAndAssetCtxs', raw)
  }
  const [meta, ctxs] = raw as [unknown, unknown]
  if (!isObj(meta) || !Array.isArray(meta.universe) || !Array.isArray(ctxs)) {
    throw badRead('metaAndAssetCtxs', raw)
  }
  const assets = new Map<string, HlAsset>()
  const ctxMap = new Map<string, HlAssetCtx>()
  meta.universe.forEach((u: unknown, index: number) => {
    if (
      !isObj(u) ||
      typeof u.name !== 'string' ||
      !Number.isSafeInteger(u.szDecimals) ||
      (u.szDecimals as number) < 0 ||
      (u.szDecimals as number) > 6
    ) {
      return
    }
    if (u.isDelisted === true) return
    const maxLeverage =
      typeof u.maxLeverage === 'number' && u.maxLeverage > 0 ? u.maxLeverage : 1
    assets.set(u.name, {
      asset: offset + index,
      name: u.name,
      szDecimals: u.szDecimals as number,
      maxLeverage,
    })
    const c: unknown = ctxs[index]
    if (!isObj(c)) return
    const markPx = decField(c.markPx)
    const funding = decField(c.funding)
    if (markPx === null || funding === null) return
    let impactPxs: HlAssetCtx['impactPxs'] = null
    if (Array.isArray(c.impactPxs) && c.impactPxs.length === 2) {
      const bid = decField(c.impactPxs[0])
      const ask = decField(c.impactPxs[1])
      if (bid !== null && ask !== null) impactPxs = [bid, ask]
    }
    ctxMap.set(u.name, { markPx, funding, impactPxs })
  })
  return { assets, ctxs: ctxMap }
}
