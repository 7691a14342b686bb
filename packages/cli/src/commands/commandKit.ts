import type { Command } from 'commander'
import { numberArg } from '../parseArgs.js'

/** The list routes' largest page. */
export const PAGE_MAX = 20

/** The "Examples:" block under a command's help. */
export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`
}

/** --interval and --timeout of every command that waits. */
export function waitFlags(cmd: Command): Command {
  return cmd
    .option(
      '--interval <ms>',
      'poll every this many ms',
      numberArg({ integer: true }),
      1000,
    )
    .option(
      '--timeout <s>',
      'give up after this many seconds',
      numberArg(),
      300,
    )
}

/** Follows `nextCursor` until `want` items or the last page. */
export async function listAll<T>(
  page: (
    cursor: string | undefined,
  ) => Promise<{ items: T[]; nextCursor: string | null }>,
  want: number,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const items: T[] = []
  let cursor: string | undefined
  for (;;) {
    const p = await page(cursor)
    items.push(...p.items)
    if (!p.nextCursor || items.length >= want)
      return { items: items.slice(0, want), nextCursor: p.nextCursor }
    cursor = p.nextCursor
  }
}
