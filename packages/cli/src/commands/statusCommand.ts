import type {
  DnClient,
  PerpOrder,
  PerpOrderStatus,
  Task,
  TaskStatus,
} from '@dn/client'
import type { Command } from 'commander'
import { cliContext } from '../cliContext.js'
import { emit } from '../output.js'
import { statusView, type VenuePositions } from '../render/statusView.js'
import { examples, listAll, PAGE_MAX } from './commandKit.js'

const ENDED_SHOWN = 5

async function tasksIn(
  client: DnClient,
  status: TaskStatus,
  want = Number.POSITIVE_INFINITY,
) {
  return (
    await listAll(
      (cursor) =>
        client
          .listTasks({ status, limit: PAGE_MAX, ...(cursor ? { cursor } : {}) })
          .then((p) => ({ items: p.tasks, nextCursor: p.nextCursor })),
      want,
    )
  ).items
}

async function ordersIn(client: DnClient, status: PerpOrderStatus) {
  return (
    await listAll(
      (cursor) =>
        client
          .listOrders({
            status,
            limit: PAGE_MAX,
            ...(cursor ? { cursor } : {}),
          })
          .then((p) => ({ items: p.orders, nextCursor: p.nextCursor })),
      Infinity,
    )
  ).items
}

/**
 * Each venue position's liquidation price and holder count, by
 * `venue|market`, from the worker's latest account snapshots.
 */
async function venuePositions(client: DnClient): Promise<VenuePositions> {
  const positions = new Map<string, { liq: string | null; holders: number }>()
  const read = await client.positions().catch(() => null)
  for (const a of read?.accounts ?? [])
    for (const p of a.positions)
      positions.set(`${a.venue}|${p.market}`, {
        liq: p.liquidationPrice,
        holders: p.holders.length,
      })
  return positions
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'one screen: running tasks with both legs, spread, funding APY, PnL and distance to liquidation; why pending tasks wait; open and unknown orders',
    )
    .addHelpText('after', examples(['dn status', 'dn status --json']))
    .action(async (_f: unknown, cmd: Command) => {
      const { keyed, json, conn } = cliContext(cmd)
      const client = keyed()
      const [running, resizing, pending, closing, closed, failed, cancelled] =
        await Promise.all([
          tasksIn(client, 'running'),
          tasksIn(client, 'resizing'),
          tasksIn(client, 'pending'),
          tasksIn(client, 'closing'),
          tasksIn(client, 'closed', ENDED_SHOWN),
          tasksIn(client, 'failed', ENDED_SHOWN),
          tasksIn(client, 'cancelled', ENDED_SHOWN),
        ])
      const [open, partial, unknown, liquidation] = await Promise.all([
        ordersIn(client, 'open'),
        ordersIn(client, 'partially_filled'),
        ordersIn(client, 'unknown'),
        venuePositions(client),
      ])
      const ended: Task[] = [...closed, ...failed, ...cancelled]
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, ENDED_SHOWN)
      const data = {
        url: conn.url,
        profile: conn.profile,
        at: Date.now(),
        running: [...running, ...resizing],
        pending,
        closing,
        ended,
        open: [...open, ...partial] as PerpOrder[],
        unknown,
        liquidation,
      }
      emit(
        json,
        {
          running: data.running,
          pending,
          closing,
          ended,
          openOrders: data.open,
          unknownOrders: unknown,
        },
        () => statusView(data),
      )
    })
}
