import type { ServerResponse } from 'node:http'

/**
 * Holds a fake's answer back until a change made while serving it is
 * saved (`durable`): a venue that acknowledged an order or a fill keeps
 * it through a crash of the process, as a real venue does. An answer
 * that changed nothing (`version` unchanged) goes at once. A save that
 * fails drops the answer (the connection is reset): the caller cannot
 * tell whether the change took, as after any lost answer.
 */
export function holdUntilSaved(
  res: ServerResponse,
  version: () => number,
  durable: (() => Promise<void>) | undefined,
): void {
  if (!durable) return
  const before = version()
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
  res.end = ((...args: unknown[]) => {
    if (version() === before) return end(...args)
    durable().then(
      () => end(...args),
      () => res.destroy(),
    )
    return res
  }) as typeof res.end
}
