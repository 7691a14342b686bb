import {
  type CreateTask,
  type ResizeTask,
  TASK_STATUSES,
  type Task,
  type TaskStatus,
} from '@dn/client'
import type { Command } from 'commander'
import { cliContext } from '../cliContext.js'
import { UsageError } from '../errors/cliErrors.js'
import { emit } from '../output.js'
import { numberArg, venueMarketArg } from '../parseArgs.js'
import { TASK_COLUMNS, taskDetails, taskRow } from '../render/taskView.js'
import { examples, waitFlags } from './commandKit.js'
import { registerListCommand } from './listCommand.js'
import {
  answerAccepted,
  registerWatchCommand,
  type WatchedKind,
  watchKind,
} from './watchedKind.js'

const TASK_TERMINAL: TaskStatus[] = ['closed', 'cancelled', 'failed']

/** Watches a task until `until` (default running, or closed once closing). */
const TASK: WatchedKind<Task> = {
  noun: 'task',
  statuses: TASK_STATUSES,
  stopped: TASK_TERMINAL,
  get: (client, id) => client.getTask(id),
  render: taskDetails,
  defaultUntil: (now) =>
    now.status === 'closing' || now.closeRequestedAt
      ? ['closed']
      : ['running', 'closed'],
}

export function registerTaskCommands(program: Command): void {
  const tasks = program
    .command('tasks')
    .description(
      'paired positions: a long leg on one venue, a short on another',
    )

  registerListCommand(tasks, {
    noun: 'tasks',
    statuses: TASK_STATUSES,
    page: (client, q) =>
      client
        .listTasks(q)
        .then((p) => ({ items: p.tasks, nextCursor: p.nextCursor })),
    row: taskRow,
    columns: TASK_COLUMNS,
    whenNone: 'open one with `dn tasks create`',
  })

  tasks
    .command('get')
    .description('show one task')
    .argument('<taskId>')
    .addHelpText(
      'after',
      examples(['dn tasks get 6f1c…', 'dn tasks get 6f1c… --json']),
    )
    .action(async (taskId: string, _f: unknown, cmd: Command) => {
      const { keyed, json } = cliContext(cmd)
      const task = await keyed().getTask(taskId)
      emit(json, { task }, () => taskDetails(task))
    })

  waitFlags(
    tasks
      .command('create')
      .description(
        'open a paired position: long on one venue, short on another',
      )
      .requiredOption(
        '--long <venue:market>',
        'the long leg, e.g. hl:BTC',
        venueMarketArg,
      )
      .requiredOption(
        '--short <venue:market>',
        'the short leg, e.g. aster:BTCUSDT',
        venueMarketArg,
      )
      .requiredOption('--size-usd <usd>', 'USD per leg', numberArg())
      .option(
        '--min-funding-apy <apy>',
        'open (and stay open) only while the funding APY is at least this',
        numberArg({ zero: true }),
      )
      .option(
        '--max-spread-bps <bps>',
        'open only while the two legs are this close',
        numberArg(),
      )
      .option(
        '--liq-protection-pct <pct>',
        'close when a leg nears liquidation by this much',
        numberArg(),
      )
      .option(
        '--size-mismatch-pct <pct>',
        'close when the legs drift apart by this much',
        numberArg(),
      )
      .option(
        '--no-auto-close',
        'no funding-APY opening gate and auto-close rule',
      )
      .option(
        '--idempotency-key <key>',
        'reuse to retry a create you are unsure about',
      )
      .option(
        '--wait',
        'wait until the task is running (exit 8 if it ends instead)',
      ),
  )
    .addHelpText(
      'after',
      examples([
        'dn tasks create --long hl:BTC --short aster:BTCUSDT --size-usd 100 --wait',
        'dn tasks create --long lighter:ETH --short hl:ETH --size-usd 500 --min-funding-apy 10 --json',
      ]),
    )
    .action(
      async (
        f: {
          long: { venue: CreateTask['longVenue']; market: string }
          short: { venue: CreateTask['shortVenue']; market: string }
          sizeUsd: number
          minFundingApy?: number
          maxSpreadBps?: number
          liqProtectionPct?: number
          sizeMismatchPct?: number
          autoClose: boolean
          idempotencyKey?: string
          wait?: boolean
          interval: number
          timeout: number
        },
        cmd: Command,
      ) => {
        const { keyed } = cliContext(cmd)
        const body: CreateTask = {
          longVenue: f.long.venue,
          longMarket: f.long.market,
          shortVenue: f.short.venue,
          shortMarket: f.short.market,
          sizeUsd: f.sizeUsd,
          ...(f.minFundingApy !== undefined
            ? { minFundingApy: f.minFundingApy }
            : {}),
          ...(f.maxSpreadBps !== undefined
            ? { maxSpreadBps: f.maxSpreadBps }
            : {}),
          ...(f.liqProtectionPct !== undefined
            ? { liqProtectionPct: f.liqProtectionPct }
            : {}),
          ...(f.sizeMismatchPct !== undefined
            ? { sizeMismatchPct: f.sizeMismatchPct }
            : {}),
          ...(f.autoClose === false ? { autoClose: false } : {}),
        }
        const ack = await keyed().createTask(body, f.idempotencyKey)
        // a task that ended instead of running (failed, cancelled, closed
        // before it was seen running) is exit 8, never a quiet success
        await answerAccepted(TASK, cmd, ack, ack.taskId, f, ['running'])
      },
    )

  registerWatchCommand(
    tasks,
    TASK,
    'follow a task until it is running (or closed, once closing), redrawn in place',
  )

  for (const [name, verb, help] of [
    ['cancel', 'cancelTask', 'cancel a pending task (nothing opened yet)'],
    ['close', 'closeTask', 'close a running task: both legs, reduce-only'],
  ] as const) {
    waitFlags(
      tasks
        .command(name)
        .description(help)
        .argument('<taskId>')
        .addHelpText(
          'after',
          examples([
            `dn tasks ${name} 6f1c…`,
            `dn tasks ${name} 6f1c… --wait --json`,
          ]),
        )
        .option('--idempotency-key <key>', 'reuse to retry')
        .option(
          '--wait',
          name === 'close' ? 'wait until closed' : 'wait for the answer only',
        ),
    ).action(
      async (
        taskId: string,
        f: {
          idempotencyKey?: string
          wait?: boolean
          interval: number
          timeout: number
        },
        cmd: Command,
      ) => {
        const { keyed, json } = cliContext(cmd)
        const ack = await keyed()[verb](taskId, f.idempotencyKey)
        if (f.wait && name === 'close') {
          const task = await watchKind(TASK, cmd, taskId, ['closed'], f)
          if (json) emit(true, { task }, () => '')
          return
        }
        emit(
          json,
          ack,
          () =>
            `task ${ack.taskId} ${ack.status}${name === 'close' ? `; follow it with \`dn tasks watch ${taskId}\`` : ''}`,
        )
      },
    )
  }

  tasks
    .command('resize')
    .description('set new total base sizes for a running task')
    .argument('<taskId>')
    .option(
      '--long-target-base <n>',
      'total long size in the base asset',
      numberArg(),
    )
    .option(
      '--short-target-base <n>',
      'total short size in the base asset',
      numberArg(),
    )
    .option(
      '--disable-size-mismatch-auto-close',
      'clear the size-mismatch auto-close rule',
    )
    .option('--idempotency-key <key>', 'reuse to retry')
    .addHelpText(
      'after',
      examples([
        'dn tasks resize 6f1c… --long-target-base 0.002 --short-target-base 0.002',
      ]),
    )
    .action(
      async (
        taskId: string,
        f: {
          longTargetBase?: number
          shortTargetBase?: number
          disableSizeMismatchAutoClose?: boolean
          idempotencyKey?: string
        },
        cmd: Command,
      ) => {
        if (f.longTargetBase === undefined && f.shortTargetBase === undefined)
          throw new UsageError(
            'give --long-target-base, --short-target-base or both',
          )
        const body: ResizeTask = {
          ...(f.longTargetBase !== undefined
            ? { longTargetBase: f.longTargetBase }
            : {}),
          ...(f.shortTargetBase !== undefined
            ? { shortTargetBase: f.shortTargetBase }
            : {}),
          ...(f.disableSizeMismatchAutoClose
            ? { disableSizeMismatchAutoClose: true }
            : {}),
        }
        const { keyed, json } = cliContext(cmd)
        const ack = await keyed().resizeTask(taskId, body, f.idempotencyKey)
        emit(json, ack, () => `task ${ack.taskId} ${ack.status}`)
      },
    )
}
