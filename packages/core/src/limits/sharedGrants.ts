import type { VenueBudgetRepo } from '../ports/store.js'
import type { RequestPriority } from './requestPriority.js'

/**
 * Weight a process reserved from a budget shared by every process of a
 * deployment (the store's `venueBudgets`), spent locally request by
 * request. Reserving in chunks keeps the store out of the path of most
 * requests.
 *
 * Exactness: a chunk reserved at `t` may be spent only until
 * `t + spendMs`, and the shared log counts it over `windowMs + spendMs`.
 * Every spend inside a window of `windowMs` then comes from chunks
 * reserved within `windowMs + spendMs` of each other, whose sum the store
 * keeps under the ceiling. What a chunk left unspent at `t + spendMs` is
 * given back (counted from `t`, so the log keeps what was spent for as
 * long as the chunk's own entry): a chunk sized for a moment's demand
 * is mostly left over when the demand passes, and a deployment's
 * processes each leaving theirs took a quarter of Hyperliquid's urgent
 * share from the lookups that needed it (the venue-fault suite). A
 * process that dies leaves its chunks reserved until they age out.
 */
export interface SharedGrantsOptions {
  readonly repo: VenueBudgetRepo
  /** names the venue (and its host) in the shared bucket keys */
  readonly prefix: string
  /** how long a reserved chunk may be spent @default 5_000 */
  readonly spendMs?: number | undefined
  /** a chunk is at most this share of the ceiling @default 0.1 */
  readonly chunkFraction?: number | undefined
}

export interface GrantNeed {
  readonly bucket: string
  readonly windowMs: number
  /** the ceiling of the priority asking */
  readonly ceiling: number
  readonly weight: number
}

interface SharedGrants {
  /**
   * 0 when every need is covered by unexpired grants of its priority;
   * else asks the store for what is missing (once at a time per bucket
   * and priority) and returns how long to wait before looking again.
   */
  waitMs(
    needs: readonly GrantNeed[],
    priority: RequestPriority,
    now: number,
  ): number
  spend(
    needs: readonly GrantNeed[],
    priority: RequestPriority,
    now: number,
  ): void
  /** Weight spent without a grant (known only from an answer): recorded. */
  record(needs: readonly GrantNeed[], now: number): void
}

interface Grant {
  readonly until: number
  left: number
}

/** Smaller give-backs are not worth a store round trip. */
const MIN_RELEASE = 2

const POLL_MS = 20

export function createSharedGrants(
  o: SharedGrantsOptions,
  /** called when a refill arrives, to serve waiters */
  onGrant: () => void,
  onError: (err: unknown) => void,
): SharedGrants {
  const spendMs = o.spendMs ?? 5_000
  const fraction = o.chunkFraction ?? 0.1
  const grants = new Map<string, Grant[]>()
  const asking = new Set<string>()
  const retryAt = new Map<string, number>()
  // chunks start at what is needed and double while they are used up, so
  // a process that dies (SIGKILL) leaves little reserved and unspent
  const lastChunk = new Map<string, number>()
  const keyOf = (bucket: string, p: RequestPriority) => `${bucket}#${p}`

  function left(key: string, now: number): number {
    const all = grants.get(key) ?? []
    if (all.some((g) => g.until <= now && g.left > 0)) lastChunk.delete(key)
    const live = all.filter((g) => g.until > now && g.left > 0)
    grants.set(key, live)
    return live.reduce((sum, g) => sum + g.left, 0)
  }

  function ask(need: GrantNeed, key: string, missing: number, now: number) {
    if (asking.has(key)) return
    asking.add(key)
    const chunk = Math.min(
      Math.max(missing, Math.ceil(need.ceiling * fraction)),
      Math.max(missing, 2 * (lastChunk.get(key) ?? 0)),
    )
    o.repo
      .reserve(
        `${o.prefix}|${need.bucket}`,
        now,
        need.windowMs + spendMs,
        need.ceiling,
        chunk,
      )
      .then((wait) => {
        if (wait === 0) {
          const list = grants.get(key) ?? []
          const grant: Grant = { until: now + spendMs, left: chunk }
          list.push(grant)
          grants.set(key, list)
          const giveBack = setTimeout(() => {
            const unspent = grant.left
            grant.left = 0
            // not used up: the next chunk starts at what is needed again
            if (unspent > 0) lastChunk.delete(key)
            if (unspent < MIN_RELEASE) return
            o.repo
              .release(
                `${o.prefix}|${need.bucket}`,
                now,
                need.windowMs + spendMs,
                unspent,
              )
              .catch(onError)
          }, spendMs)
          giveBack.unref?.()
          lastChunk.set(key, chunk)
          retryAt.delete(key)
        } else if (chunk > missing) {
          // the store's wait is for the whole chunk: what is missing may
          // fit now, so it is asked next, at once (a lookup needing 2
          // waited out a 54-weight chunk's wait, refused meanwhile)
          lastChunk.delete(key)
        } else {
          retryAt.set(key, now + wait)
        }
      })
      .catch((err: unknown) => {
        retryAt.set(key, now + 1_000)
        onError(err)
      })
      .finally(() => {
        asking.delete(key)
        onGrant()
      })
  }

  return {
    waitMs(needs, p, now) {
      let wait = 0
      for (const need of needs) {
        const key = keyOf(need.bucket, p)
        const have = left(key, now)
        if (have >= need.weight) continue
        const retry = retryAt.get(key) ?? 0
        if (retry > now) {
          wait = Math.max(wait, retry - now)
          continue
        }
        ask(need, key, need.weight - have, now)
        wait = Math.max(wait, POLL_MS)
      }
      return wait
    },
    spend(needs, p, now) {
      for (const need of needs) {
        let owed = need.weight
        for (const g of grants.get(keyOf(need.bucket, p)) ?? []) {
          if (g.until <= now || owed === 0) continue
          const take = Math.min(g.left, owed)
          g.left -= take
          owed -= take
        }
      }
    },
    record(needs, now) {
      for (const need of needs) {
        o.repo
          .reserve(
            `${o.prefix}|${need.bucket}`,
            now,
            need.windowMs + spendMs,
            Number.POSITIVE_INFINITY,
            need.weight,
          )
          .catch(onError)
      }
    },
  }
}
