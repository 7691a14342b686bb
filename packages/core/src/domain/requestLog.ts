export type RequestFamily = 'strategy' | 'perp'

export interface RequestLogRecord {
  readonly id: string
  readonly apiKeyId: string
  readonly family: RequestFamily
  readonly action: string
  readonly method: string
  readonly path: string
  readonly taskId: string | null
  readonly orderId: string | null
  readonly httpStatus: number
  readonly errorCode: string | null
  readonly replayed: boolean
  readonly createdAt: string
}
