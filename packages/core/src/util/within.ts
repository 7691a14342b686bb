/**
 * `p`'s value, or null once it failed or `ms` passed without one (wall
 * clock). The promise that loses goes on; its failure is nobody's.
 * @example await within(adapter.positions(cred), 2_000) // null: too slow
 */
export function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms)
    timer.unref?.()
  })
  return Promise.race([p.catch(() => null), late]).finally(() =>
    clearTimeout(timer),
  )
}
