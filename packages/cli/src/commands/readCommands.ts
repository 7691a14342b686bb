import {
  DnApiError,
  type DnClient,
  type Market,
  type MarketList,
  type PositionHolder,
  type RequestLog,
} from '@dn/client'
import { positionHolderLabel } from '@dn/core'
import type { Command } from 'commander'
import { cliContext } from '../cliContext.js'
import { ago, emit, table } from '../output.js'
import { VENUES, type VenueName, venueArg } from '../parseArgs.js'
import { examples } from './commandKit.js'

const pct = (fraction: string | null, digits: number) =>
  fraction === null ? '-' : `${(Number(fraction) * 100).toFixed(digits)}%`

const MARKET_COLUMNS = [
  'SYMBOL',
  'TICK',
  'STEP',
  'MIN BASE',
  'MIN USD',
  'MAX LEV',
  'MARK',
  'BID',
  'ASK',
  'FUNDING/H',
  'APY',
  'NEXT FUNDING',
]

function marketRow(m: Market): Record<string, string> {
  return {
    SYMBOL: m.symbol,
    TICK: m.tickSize,
    STEP: m.sizeStep,
    'MIN BASE': m.minBase,
    'MIN USD': m.minNotionalUsd,
    'MAX LEV': `${m.maxLeverage}x`,
    MARK: m.mark ?? '-',
    BID: m.bid ?? '-',
    ASK: m.ask ?? '-',
    'FUNDING/H': pct(m.fundingRateHourly, 4),
    APY: m.fundingApy === null ? '-' : `${Number(m.fundingApy).toFixed(2)}%`,
    'NEXT FUNDING': m.nextFundingAt ? m.nextFundingAt.slice(11, 16) : '-',
  }
}

/** `lighter #12` for an account with an index, else the venue. */
const accountName = (a: { venue: string; accountIndex: string | null }) =>
  a.accountIndex === null ? a.venue : `${a.venue} #${a.accountIndex}`

/** How old a snapshot is: "12s ago", or "not read yet". */
const readAge = (ageMs: number | null) =>
  ageMs === null ? 'not read yet' : `${Math.round(ageMs / 1000)}s ago`

/** A venue's markets, or null when the key does not grant it. */
async function grantedMarkets(
  client: DnClient,
  venue: VenueName,
): Promise<MarketList | null> {
  try {
    return await client.markets({ venue })
  } catch (err) {
    if (err instanceof DnApiError && err.code === 'venue_not_granted')
      return null
    throw err
  }
}

function requestRow(r: RequestLog): Record<string, string> {
  return {
    TIME: ago(r.created_at),
    ACTION: r.action,
    STATUS: String(r.http_status),
    CODE: r.error_code ?? '',
    RESOURCE: r.task_id ?? r.order_id ?? '',
    REQUEST: r.request_id,
    REPLAYED: r.replayed ? 'yes' : '',
  }
}

export function registerReadCommands(program: Command): void {
  program
    .command('markets')
    .description(
      'listed markets: precision, minimums, mark, funding (of one venue, or of every venue the key grants)',
    )
    .option(
      '--venue <venue>',
      'hl, lighter, lighter-mainnet or aster',
      venueArg,
    )
    .option('--symbol <text>', 'only symbols containing this')
    .addHelpText(
      'after',
      examples([
        'dn markets --symbol BTC',
        'dn markets --venue hl',
        'dn markets --venue aster --symbol BTC --json',
      ]),
    )
    .action(async (f: { venue?: VenueName; symbol?: string }, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const client = keyed()
      const wanted = f.symbol?.toUpperCase()
      const pick = (list: MarketList): MarketList => ({
        ...list,
        markets: wanted
          ? list.markets.filter((m) => m.symbol.toUpperCase().includes(wanted))
          : list.markets,
      })
      const lists = f.venue
        ? [pick(await client.markets({ venue: f.venue }))]
        : (
            await Promise.all(
              VENUES.map((venue) => grantedMarkets(client, venue)),
            )
          )
            .filter((l): l is MarketList => l !== null)
            .map(pick)
      const rows = lists.flatMap((l) =>
        l.markets.map((m) => ({ VENUE: l.venue, ...marketRow(m) })),
      )
      emit(json, f.venue ? lists[0] : { venues: lists }, () =>
        rows.length === 0
          ? `no market${f.venue ? ` on ${f.venue}` : ''}${f.symbol ? ` matches ${f.symbol}` : ''}`
          : table(
              rows,
              f.venue ? MARKET_COLUMNS : ['VENUE', ...MARKET_COLUMNS],
            ),
      )
    })

  program
    .command('positions')
    .description(
      "your bound accounts' positions, as the worker last read them (with the age of each read)",
    )
    .option('--venue <venue>', 'one venue only', venueArg)
    .addHelpText(
      'after',
      examples(['dn positions', 'dn positions --venue hl --json']),
    )
    .action(async (f: { venue?: VenueName }, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const list = await keyed().positions(f.venue ? { venue: f.venue } : {})
      const rows = list.accounts.flatMap((a) =>
        a.positions.length === 0
          ? [
              {
                VENUE: accountName(a),
                MARKET: a.readAt ? '(flat)' : '(not read yet)',
                READ: readAge(a.ageMs),
              },
            ]
          : a.positions.map((p) => ({
              VENUE: accountName(a),
              MARKET: p.market,
              SIDE: p.side,
              SIZE: p.sizeBase,
              ENTRY: p.entryPrice,
              MARK: p.markPrice,
              'UPNL USD': p.unrealizedPnlUsd,
              LEV: `${p.leverage}x ${p.marginMode}`,
              LIQ: p.liquidationPrice ?? '-',
              'HELD BY': heldBy(p.holders),
              READ: readAge(a.ageMs),
            })),
      )
      emit(json, list, () =>
        rows.length === 0
          ? 'no bound accounts on the venues this key grants'
          : table(rows, [
              'VENUE',
              'MARKET',
              'SIDE',
              'SIZE',
              'ENTRY',
              'MARK',
              'UPNL USD',
              'LEV',
              'LIQ',
              'HELD BY',
              'READ',
            ]),
      )
    })

  program
    .command('balances')
    .description(
      "your bound accounts' collateral in USD, as the worker last read it",
    )
    .option('--venue <venue>', 'one venue only', venueArg)
    .addHelpText('after', examples(['dn balances', 'dn balances --json']))
    .action(async (f: { venue?: VenueName }, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const list = await keyed().balances(f.venue ? { venue: f.venue } : {})
      emit(json, list, () =>
        list.accounts.length === 0
          ? 'no bound accounts on the venues this key grants'
          : table(
              list.accounts.map((a) => ({
                VENUE: accountName(a),
                'EQUITY USD': a.equityUsd ?? '-',
                'AVAILABLE USD': a.availableUsd ?? '-',
                'MARGIN USED USD': a.marginUsedUsd ?? '-',
                READ: readAge(a.ageMs),
              })),
              [
                'VENUE',
                'EQUITY USD',
                'AVAILABLE USD',
                'MARGIN USED USD',
                'READ',
              ],
            ),
      )
    })

  program
    .command('requests')
    .description(
      'your latest API requests (at most 100): strategy routes, or --perp',
    )
    .option('--perp', 'the direct-order routes instead')
    .addHelpText(
      'after',
      examples(['dn requests', 'dn requests --perp --json']),
    )
    .action(async (f: { perp?: boolean }, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const client = keyed()
      const requests = f.perp
        ? await client.perpRequests()
        : await client.strategyRequests()
      emit(json, { requests }, () =>
        requests.length === 0
          ? 'no requests yet'
          : table(requests.map(requestRow), [
              'TIME',
              'ACTION',
              'STATUS',
              'CODE',
              'RESOURCE',
              'REQUEST',
              'REPLAYED',
            ]),
      )
    })

  program
    .command('openapi')
    .description("print the service's OpenAPI 3.1 document")
    .action(async (_f: unknown, cmd: Command) => {
      const { client } = cliContext(cmd)
      process.stdout.write(
        `${JSON.stringify(await client.openApiDocument(), null, 2)}\n`,
      )
    })
}

/**
 * Who in dn holds a position, as a cell: each task leg by the task id's
 * first 8 characters, the direct orders, and the part no one in dn holds.
 */
function heldBy(holders: readonly PositionHolder[]): string {
  if (holders.length === 0) return '-'
  return holders.map(positionHolderLabel).join(', ')
}
