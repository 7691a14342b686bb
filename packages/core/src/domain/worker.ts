export interface WorkerRecord {
  readonly id: string
  readonly startedAt: string
  readonly heartbeatAt: string
  readonly fencedAt: string | null
  /**
   * the machine (and process namespace) it runs on, where it can be told:
   * a process there can check whether `pid` still runs
   */
  readonly host?: string | null | undefined
  readonly pid?: number | null | undefined
}
