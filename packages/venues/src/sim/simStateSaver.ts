/** Saves the simulator while `dn up` runs. */
export interface SimStateSaver {
  /** saves now, changed or not (the shutdown's last word) */
  saveNow(): void
  /**
   * resolves once every change made so far is saved: the changes of one
   * event-loop turn share one save
   * @throws what the save throws
   */
  flush(): Promise<void>
  stop(): void
}

interface SimStateSaverOptions {
  /** writes the current state */
  readonly save: () => void
  /** grows with every change a caller made */
  readonly version: () => number
  /** how often a change is looked for @default 1000 */
  readonly intervalMs?: number | undefined
  /**
   * saved this often even without a change, so a restart replays little
   * of what time alone did (walks, fills, funding) @default 60_000
   */
  readonly refreshMs?: number | undefined
  /** a failed save; the next tick tries again */
  readonly onError: (err: unknown) => void
  /** @default Date.now */
  readonly now?: (() => number) | undefined
}

/**
 * Saves within `intervalMs` of a change (a version counter, so an idle
 * simulator is not rewritten every tick), and every `refreshMs` anyway.
 * The timer does not keep the process alive.
 */
export function startSimStateSaver(o: SimStateSaverOptions): SimStateSaver {
  const now = o.now ?? Date.now
  let savedVersion = o.version()
  let savedAt = now()
  const save = () => {
    const version = o.version()
    o.save()
    savedVersion = version
    savedAt = now()
  }
  const timer = setInterval(() => {
    if (
      o.version() === savedVersion &&
      now() - savedAt < (o.refreshMs ?? 60_000)
    ) {
      return
    }
    try {
      save()
    } catch (err) {
      o.onError(err)
    }
  }, o.intervalMs ?? 1000)
  timer.unref()
  let pending: Promise<void> | null = null
  const flush = (): Promise<void> => {
    if (o.version() === savedVersion) return Promise.resolve()
    pending ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        pending = null
        try {
          if (o.version() !== savedVersion) save()
          resolve()
        } catch (err) {
          o.onError(err)
          reject(err)
        }
      })
    })
    return pending
  }
  return { saveNow: save, flush, stop: () => clearInterval(timer) }
}
