/** Worker lease with a fencing token that rises on every claim. */
export interface Lease {
  readonly leaseOwner: string | null
  readonly leaseExpiresAt: string | null
  readonly fence: number
  /** earliest time a worker should look at the row again; null = now */
  readonly nextCheckAt: string | null
}
