import type { Market, RequestLog } from '@dn/client'
import type { Command } from 'commander'
import { cliContext } from '../cliContext.js'
import { table } from '../output.js'
import { type VenueName, venueArg } from '../parseArgs.js'
import { ago, emit } from '../printOutput.js'
import { examples } from './commandKit.js'

const pct = (fraction: string | null, digits: number) =>
  fraction === null ? '-' : `${(Number(fraction) * 100).toFixed(digits)}%`

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
    APY: pct(m.fundingApy, 2),
    'NEXT FUNDING': m.nextFundingAt ? m.nextFundingAt.slice(11, 16) : '-',
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
    .description("a venue's listed markets: precision, minimums, mark, funding")
    .requiredOption(
      '--venue <venue>',
      'hl, lighter, lighter-mainnet or aster',
      venueArg,
    )
    .option('--symbol <text>', 'only symbols containing this')
    .addHelpText(
      'after',
      examples([
        'dn markets --venue hl',
        'dn markets --venue aster --symbol BTC --json',
      ]),
    )
    .action(async (f: { venue: VenueName; symbol?: string }, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const list = await keyed().markets({ venue: f.venue })
      const wanted = f.symbol?.toUpperCase()
      const markets = wanted
        ? list.markets.filter((m) => m.symbol.toUpperCase().includes(wanted))
        : list.markets
      emit(json, { ...list, markets }, () =>
        markets.length === 0
          ? `no ${f.venue} market matches ${f.symbol}`
          : table(
              markets.map(marketRow),
              Object.keys(marketRow(markets[0] as Market)),
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
