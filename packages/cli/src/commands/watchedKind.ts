import type { DnClient } from '@dn/client'
import { type Command, Option } from 'commander'
import { cliContext } from '../cliContext.js'
import { emit } from '../output.js'
import { watchResource } from '../watchResource.js'
import { examples, waitFlags } from './commandKit.js'

/** What watching and answering differ in between tasks and orders. */
export interface WatchedKind<T extends { status: string }> {
  readonly noun: 'task' | 'order'
  readonly statuses: readonly string[]
  /** statuses it can end in; a watch for another one stops there */
  readonly stopped: readonly string[]
  get(client: DnClient, id: string): Promise<T>
  render(t: T): string
  /** what a watch without --until waits for, from where it stands now */
  defaultUntil(now: T): readonly string[]
}

interface WaitFlags {
  readonly interval: number
  readonly timeout: number
}

/** Polls until `until`, or stops with the status it ended in instead. */
export function watchKind<T extends { status: string }>(
  kind: WatchedKind<T>,
  cmd: Command,
  id: string,
  until: readonly string[],
  flags: WaitFlags,
): Promise<T> {
  const { client, json } = cliContext(cmd)
  return watchResource({
    what: `${kind.noun} ${id}`,
    read: () => kind.get(client, id),
    status: (t) => t.status,
    render: (t) => kind.render(t),
    until,
    ended: kind.stopped.filter((s) => !until.includes(s)),
    json,
    intervalMs: flags.interval,
    timeoutMs: flags.timeout * 1000,
  })
}

/**
 * The answer to a create (or a close): the acknowledgement with the next
 * step, or with --wait the watch until `until` and, with --json, the
 * final object.
 */
export async function answerAccepted<T extends { status: string }>(
  kind: WatchedKind<T>,
  cmd: Command,
  ack: { readonly status: string },
  id: string,
  wait: { readonly wait?: boolean | undefined } & WaitFlags,
  until: readonly string[],
): Promise<void> {
  const { json } = cliContext(cmd)
  if (!wait.wait) {
    emit(
      json,
      ack,
      () =>
        `${kind.noun} ${id} ${ack.status}; follow it with \`dn ${kind.noun}s watch ${id}\``,
    )
    return
  }
  const last = await watchKind(kind, cmd, id, until, wait)
  if (json) emit(true, { [kind.noun]: last }, () => '')
}

/** `dn tasks watch` / `dn orders watch`. */
export function registerWatchCommand<T extends { status: string }>(
  parent: Command,
  kind: WatchedKind<T>,
  description: string,
): void {
  waitFlags(
    parent
      .command('watch')
      .description(description)
      .argument(`<${kind.noun}Id>`)
      .addOption(
        new Option('--until <status>', 'the status to wait for').choices(
          kind.statuses,
        ),
      ),
  )
    .addHelpText(
      'after',
      examples([
        `dn ${kind.noun}s watch 6f1c…`,
        `dn ${kind.noun}s watch 6f1c… --until ${kind.stopped[0]} --json`,
      ]),
    )
    .action(
      async (id: string, f: { until?: string } & WaitFlags, cmd: Command) => {
        const { keyed, json } = cliContext(cmd)
        const until = f.until
          ? [f.until]
          : kind.defaultUntil(await kind.get(keyed(), id))
        const last = await watchKind(kind, cmd, id, until, f)
        if (json) emit(true, { [kind.noun]: last }, () => '')
      },
    )
}
