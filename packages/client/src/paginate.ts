/** One page of a list route. */
export interface Page<T> {
  readonly items: readonly T[]
  /** pass back as `cursor` for the next page; null on the last */
  readonly nextCursor: string | null
}

/**
 * Every item of a paged list, fetching the next page only when the
 * previous one is used up, so `break` stops the requests too.
 */
export async function* paginate<T>(
  page: (cursor: string | undefined) => Promise<Page<T>>,
  cursor?: string,
): AsyncGenerator<T, void, undefined> {
  for (let next = cursor; ; ) {
    const p = await page(next)
    yield* p.items
    if (p.nextCursor === null) return
    next = p.nextCursor
  }
}
