import {
  type CreatePerpOrder,
  PERP_ORDER_STATUSES,
  type PerpOrder,
  type PerpOrderStatus,
  type ResolvePerpOrder,
} from '@dn/client'
import { type Command, Option } from 'commander'
import { cliContext } from '../cliContext.js'
import { UsageError } from '../errors/cliErrors.js'
import { emit } from '../output.js'
import { numberArg, type VenueName, venueArg } from '../parseArgs.js'
import { ORDER_COLUMNS, orderDetails, orderRow } from '../render/orderView.js'
import { examples, waitFlags } from './commandKit.js'
import { registerListCommand } from './listCommand.js'
import {
  answerAccepted,
  registerWatchCommand,
  type WatchedKind,
  watchKind,
} from './watchedKind.js'

// `unknown` is not final, but nothing moves it without an operator
const ORDER_STOPPED: PerpOrderStatus[] = [
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'unknown',
]

const ORDER: WatchedKind<PerpOrder> = {
  noun: 'order',
  statuses: PERP_ORDER_STATUSES,
  stopped: ORDER_STOPPED,
  get: (client, id) => client.getOrder(id),
  render: orderDetails,
  defaultUntil: (now) =>
    now.cancelRequestedAt ? ['cancelled'] : ['open', 'filled'],
}

interface CreateFlags {
  venue: VenueName
  market: string
  side: 'long' | 'short'
  type?: 'market' | 'limit'
  size: number
  price?: number
  tif?: 'ioc' | 'gtc' | 'post_only'
  slippageBps?: number
  reduceOnly?: boolean
  expirySeconds?: number
  idempotencyKey?: string
  wait?: boolean
  interval: number
  timeout: number
}

function orderBody(f: CreateFlags): CreatePerpOrder {
  const type = f.type ?? (f.price !== undefined ? 'limit' : 'market')
  const common = {
    venue: f.venue,
    market: f.market,
    side: f.side,
    sizeBase: f.size,
    ...(f.reduceOnly ? { reduceOnly: true } : {}),
    ...(f.expirySeconds !== undefined
      ? { expirySeconds: f.expirySeconds }
      : {}),
  }
  if (type === 'market') {
    if (f.price !== undefined)
      throw new UsageError(
        '--price is for limit orders; a market order takes --slippage-bps',
      )
    if (f.tif && f.tif !== 'ioc')
      throw new UsageError('a market order is ioc only')
    return {
      ...common,
      orderType: 'market',
      ...(f.slippageBps !== undefined ? { slippageBps: f.slippageBps } : {}),
    }
  }
  if (f.price === undefined) throw new UsageError('a limit order needs --price')
  if (f.slippageBps !== undefined)
    throw new UsageError('--slippage-bps is for market orders only')
  return {
    ...common,
    orderType: 'limit',
    limitPrice: f.price,
    ...(f.tif ? { timeInForce: f.tif } : {}),
  }
}

export function registerOrderCommands(program: Command): void {
  const orders = program
    .command('orders')
    .description('direct perpetual orders')

  registerListCommand(orders, {
    noun: 'orders',
    statuses: PERP_ORDER_STATUSES,
    page: (client, q) =>
      client
        .listOrders(q)
        .then((p) => ({ items: p.orders, nextCursor: p.nextCursor })),
    row: orderRow,
    columns: ORDER_COLUMNS,
    whenNone: 'place one with `dn orders create`',
  })

  orders
    .command('get')
    .description('show one order')
    .argument('<orderId>')
    .addHelpText(
      'after',
      examples(['dn orders get 0b7e…', 'dn orders get 0b7e… --json']),
    )
    .action(async (orderId: string, _f: unknown, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const order = await keyed().getOrder(orderId)
      emit(json, { order }, () => orderDetails(order))
    })

  waitFlags(
    orders
      .command('create')
      .description('place a market or limit order on one venue')
      .requiredOption(
        '--venue <venue>',
        'hl, lighter, lighter-mainnet or aster',
        venueArg,
      )
      .requiredOption(
        '--market <symbol>',
        'the exact venue symbol, e.g. BTC or BTCUSDT',
      )
      .addOption(
        new Option('--side <side>', 'long buys, short sells')
          .choices(['long', 'short'])
          .makeOptionMandatory(),
      )
      .requiredOption(
        '--size <base>',
        'size in the base asset (floored to the venue step)',
        numberArg(),
      )
      .addOption(
        new Option(
          '--type <type>',
          'market or limit (limit when --price is given)',
        ).choices(['market', 'limit']),
      )
      .option('--price <price>', 'limit price, on the venue tick', numberArg())
      .addOption(
        new Option('--tif <tif>', 'time in force').choices([
          'ioc',
          'gtc',
          'post_only',
        ]),
      )
      .option(
        '--slippage-bps <bps>',
        'market orders: worst price from mark (default 100)',
        numberArg({ zero: true, integer: true }),
      )
      .option('--reduce-only', 'only reduce a position')
      .option(
        '--expiry-seconds <s>',
        'queue deadline and resting lifetime',
        numberArg({ integer: true }),
      )
      .option(
        '--idempotency-key <key>',
        'reuse to retry a create you are unsure about',
      )
      .option('--wait', 'wait until it rests, fills or ends'),
  )
    .addHelpText(
      'after',
      examples([
        'dn orders create --venue hl --market BTC --side long --size 0.001 --wait',
        'dn orders create --venue aster --market BTCUSDT --side short --size 0.01 --price 150000 --tif gtc',
      ]),
    )
    .action(async (f: CreateFlags, cmd: Command) => {
      const body = orderBody(f)
      const { keyed } = cliContext(cmd)
      const ack = await keyed().createOrder(body, f.idempotencyKey)
      await answerAccepted(ORDER, cmd, ack, ack.orderId, f, ['open', 'filled'])
    })

  registerWatchCommand(
    orders,
    ORDER,
    'follow an order until it rests, fills or ends, redrawn in place',
  )

  waitFlags(
    orders
      .command('cancel')
      .description('cancel an order (queued until the venue confirms)')
      .argument('<orderId>')
      .addHelpText(
        'after',
        examples([
          'dn orders cancel 0b7e…',
          'dn orders cancel 0b7e… --wait --json',
        ]),
      )
      .option('--idempotency-key <key>', 'reuse to retry')
      .option('--wait', 'wait until cancelled'),
  ).action(
    async (
      orderId: string,
      f: {
        idempotencyKey?: string
        wait?: boolean
        interval: number
        timeout: number
      },
      cmd: Command,
    ) => {
      const { keyed, json } = cliContext(cmd)
      const ack = await keyed().cancelOrder(orderId, f.idempotencyKey)
      if (f.wait && ack.status !== 'cancelled') {
        const order = await watchKind(ORDER, cmd, orderId, ['cancelled'], f)
        if (json) emit(true, { order }, () => '')
        return
      }
      emit(json, ack, () => `order ${ack.orderId} ${ack.status}`)
    },
  )

  orders
    .command('resolve')
    .description(
      'settle an `unknown` order by hand, with what the venue shows (docs/operations.md)',
    )
    .argument('<orderId>')
    .addOption(
      new Option('--status <status>', 'what the venue shows')
        .choices(['filled', 'cancelled', 'expired', 'rejected'])
        .makeOptionMandatory(),
    )
    .requiredOption(
      '--filled-base <base>',
      'total filled quantity at the venue',
      numberArg({ zero: true }),
    )
    .option(
      '--average-price <price>',
      'average fill price (when filled-base > 0)',
      numberArg(),
    )
    .requiredOption(
      '--evidence <text>',
      'what you checked, e.g. the venue fill ids (10..2000 characters)',
    )
    .option(
      '--confirm-no-open-order',
      'I checked: no order of it rests at the venue',
    )
    .option('--confirm-workers-stopped', 'I checked: every worker is stopped')
    .option('--idempotency-key <key>', 'reuse to retry')
    .addHelpText(
      'after',
      examples([
        "dn orders resolve 0b7e… --status filled --filled-base 0.001 --average-price 97123.5 --evidence 'hl fill 0x… at 12:01' --confirm-no-open-order --confirm-workers-stopped",
      ]),
    )
    .action(
      async (
        orderId: string,
        f: {
          status: ResolvePerpOrder['status']
          filledBase: number
          averagePrice?: number
          evidence: string
          confirmNoOpenOrder?: boolean
          confirmWorkersStopped?: boolean
          idempotencyKey?: string
        },
        cmd: Command,
      ) => {
        if (!f.confirmNoOpenOrder || !f.confirmWorkersStopped)
          throw new UsageError(
            'resolving needs --confirm-no-open-order and --confirm-workers-stopped',
            'check the venue and stop the workers first (docs/operations.md)',
          )
        const { keyed, json } = cliContext(cmd)
        const r = await keyed().resolveOrder(
          orderId,
          {
            status: f.status,
            filledBase: f.filledBase,
            averagePrice: f.averagePrice ?? null,
            evidence: f.evidence,
            confirmNoOpenOrder: true,
            confirmWorkersStopped: true,
          },
          f.idempotencyKey,
        )
        emit(json, r, () => `order ${r.orderId} resolved ${r.status}`)
      },
    )
}
