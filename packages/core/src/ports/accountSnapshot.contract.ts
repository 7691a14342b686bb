import { randomBytes, randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import type { AccountSnapshotRecord } from '../domain/accountSnapshot.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import {
  type StoreContractDatabases,
  withOwnDatabase,
} from './store.contract.js'
import type { Store } from './store.js'

const owner = () => `0x${randomBytes(20).toString('hex')}`
const at = (ms: number) => new Date(ms).toISOString()
const T = Date.UTC(2030, 2, 1)

function binding(
  who: string,
  venue: VenueId,
  over: Partial<VenueBindingRecord> = {},
): VenueBindingRecord {
  return {
    id: randomUUID(),
    owner: who,
    venue,
    status: 'bound',
    accountIndex: venue.startsWith('lighter') ? '281474976710654' : null,
    credentialRef: '1',
    credentialCiphertext: 'v1.abc.def',
    unusableCode: null,
    createdAt: at(T),
    updatedAt: at(T),
    ...over,
  }
}

function snapshot(
  who: string,
  venue: VenueId,
  over: Partial<AccountSnapshotRecord> = {},
): AccountSnapshotRecord {
  return {
    owner: who,
    venue,
    accountIndex: venue.startsWith('lighter') ? '281474976710654' : null,
    positions: [
      {
        market: 'ETH',
        size: '-0.25',
        entryPrice: '3012.5',
        markPrice: '3000.125',
        leverage: '3',
        marginMode: 'cross',
        liquidationPrice: null,
      },
    ],
    readAt: at(T + 1_000),
    balance: {
      equityUsd: '1000.000001',
      availableUsd: '750.5',
      marginUsedUsd: '250',
    },
    balanceReadAt: at(T + 1_000),
    ...over,
  }
}

/**
 * Account snapshots (what GET /v1/positions and /v1/balances serve): kept
 * per bound account, never moved back in time, listed for the accounts an
 * owner has bound now. Shares the contract's store; the list of every
 * bound account gets a database of its own.
 */
export function accountSnapshotTests(
  store: () => Store,
  databases: StoreContractDatabases,
) {
  test('account snapshots: bound accounts listed, with their snapshot or null', async () => {
    const s = store()
    const a = owner()
    for (const v of ['hl', 'lighter', 'aster'] as const) {
      await s.bindings.upsert(binding(a, v))
    }
    // revoked: not an account the owner has bound
    await s.bindings.upsert(
      binding(a, 'lighter-mainnet', { status: 'revoked' }),
    )
    // another owner's snapshot never shows
    await s.bindings.upsert(binding(owner(), 'hl'))
    await s.accountSnapshots.put([snapshot(a, 'hl'), snapshot(a, 'lighter')])
    const listed = await s.accountSnapshots.listByOwner(a, [
      'hl',
      'lighter',
      'aster',
      'lighter-mainnet',
    ])
    expect(listed).toEqual([
      { venue: 'aster', accountIndex: null, snapshot: null },
      { venue: 'hl', accountIndex: null, snapshot: snapshot(a, 'hl') },
      {
        venue: 'lighter',
        accountIndex: '281474976710654',
        snapshot: snapshot(a, 'lighter'),
      },
    ])
    // only the venues asked for
    expect(
      (await s.accountSnapshots.listByOwner(a, ['lighter'])).map(
        (x) => x.venue,
      ),
    ).toEqual(['lighter'])
    expect(await s.accountSnapshots.listByOwner(a, [])).toEqual([])
  })

  test('account snapshots: a later read replaces, an earlier never does; no balance keeps the stored one', async () => {
    const s = store()
    const a = owner()
    await s.bindings.upsert(binding(a, 'hl'))
    await s.accountSnapshots.put([snapshot(a, 'hl')])
    const later = snapshot(a, 'hl', {
      positions: [],
      readAt: at(T + 5_000),
      balance: null,
      balanceReadAt: null,
    })
    await s.accountSnapshots.put([later])
    // a racing worker's older read lands after: ignored
    await s.accountSnapshots.put([snapshot(a, 'hl', { readAt: at(T + 2_000) })])
    const [got] = await s.accountSnapshots.listByOwner(a, ['hl'])
    expect(got?.snapshot).toEqual({
      ...later,
      balance: snapshot(a, 'hl').balance,
      balanceReadAt: at(T + 1_000),
    })
    // several for one account in one put: the last wins
    await s.accountSnapshots.put([
      snapshot(a, 'hl', { readAt: at(T + 7_000) }),
      snapshot(a, 'hl', { readAt: at(T + 8_000), positions: [] }),
    ])
    const [again] = await s.accountSnapshots.listByOwner(a, ['hl'])
    expect(again?.snapshot?.readAt).toBe(at(T + 8_000))
    expect(again?.snapshot?.positions).toEqual([])
  })

  test('account snapshots: a rebind to another Lighter account shows none until it is read', async () => {
    const s = store()
    const a = owner()
    await s.bindings.upsert(binding(a, 'lighter'))
    await s.accountSnapshots.put([snapshot(a, 'lighter')])
    await s.bindings.upsert(binding(a, 'lighter', { accountIndex: '7' }))
    expect(await s.accountSnapshots.listByOwner(a, ['lighter'])).toEqual([
      { venue: 'lighter', accountIndex: '7', snapshot: null },
    ])
  })

  test('account snapshots: listBound pages every bound account by owner and venue', () =>
    withOwnDatabase(databases, async (s) => {
      const owners = [owner(), owner(), owner()].sort()
      for (const o of owners) {
        await s.bindings.upsert(binding(o, 'hl'))
        await s.bindings.upsert(binding(o, 'aster'))
      }
      await s.bindings.upsert(
        binding(owner(), 'hl', { status: 'unusable', unusableCode: 'x' }),
      )
      await s.accountSnapshots.put([snapshot(owners[1] as string, 'hl')])
      const seen: string[] = []
      let after: { owner: string; venue: VenueId } | undefined
      for (;;) {
        const page = await s.accountSnapshots.listBound({
          ...(after ? { after } : {}),
          limit: 4,
        })
        for (const b of page) {
          seen.push(`${b.owner}|${b.venue}|${b.readAt ?? '-'}`)
        }
        const last = page[page.length - 1]
        if (page.length < 4 || !last) break
        after = { owner: last.owner, venue: last.venue }
      }
      expect(seen).toEqual(
        owners.flatMap((o, i) => [
          `${o}|aster|-`,
          `${o}|hl|${i === 1 ? at(T + 1_000) : '-'}`,
        ]),
      )
    }))
}
