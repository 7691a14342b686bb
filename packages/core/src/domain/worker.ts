export interface WorkerRecord {
  readonly id: string
  readonly startedAt: string
  readonly heartbeatAt: string
  readonly fencedAt: string | null
}
