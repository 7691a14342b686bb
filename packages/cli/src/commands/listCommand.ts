import type { DnClient } from '@dn/client'
import { type Command, Option } from 'commander'
import { cliContext } from '../cliContext.js'
import { emit, table } from '../output.js'
import { numberArg } from '../parseArgs.js'
import { examples, listAll, PAGE_MAX } from './commandKit.js'

interface ListSpec<T, S extends string> {
  /** `tasks` or `orders`: the JSON key and the words of messages */
  readonly noun: 'tasks' | 'orders'
  readonly statuses: readonly S[]
  /** one page from the service */
  readonly page: (
    client: DnClient,
    q: { status?: S; limit: number; cursor?: string },
  ) => Promise<{ items: T[]; nextCursor: string | null }>
  readonly row: (item: T) => Record<string, string>
  readonly columns: readonly string[]
  /** what to do when there is nothing, e.g. "open one with `dn tasks create`" */
  readonly whenNone: string
}

/** `dn tasks list` / `dn orders list`: newest first, a table or --json. */
export function registerListCommand<T, S extends string>(
  parent: Command,
  spec: ListSpec<T, S>,
): void {
  parent
    .command('list')
    .description(`list your ${spec.noun}, newest first`)
    .addOption(
      new Option('--status <status>', 'only this status').choices(
        spec.statuses,
      ),
    )
    .option(
      '--limit <n>',
      'at most this many (pages of 20 are followed)',
      numberArg({ integer: true }),
      PAGE_MAX,
    )
    .option('--all', 'follow every page')
    .addHelpText(
      'after',
      examples([
        `dn ${spec.noun} list`,
        `dn ${spec.noun} list --status ${spec.statuses[1]} --json`,
      ]),
    )
    .action(
      async (
        flags: { status?: S; limit: number; all?: boolean },
        cmd: Command,
      ) => {
        const { keyed, json } = cliContext(cmd)
        const client = keyed()
        const page = await listAll(
          (cursor) =>
            spec.page(client, {
              ...(flags.status ? { status: flags.status } : {}),
              limit: Math.min(flags.limit, PAGE_MAX),
              ...(cursor ? { cursor } : {}),
            }),
          flags.all ? Number.POSITIVE_INFINITY : flags.limit,
        )
        emit(
          json,
          { [spec.noun]: page.items, nextCursor: page.nextCursor },
          () =>
            page.items.length === 0
              ? `no ${spec.noun}${flags.status ? ` ${flags.status}` : ''}; ${spec.whenNone}`
              : `${table(page.items.map(spec.row), spec.columns)}${page.nextCursor ? '\n(more: --all)' : ''}`,
        )
      },
    )
}
