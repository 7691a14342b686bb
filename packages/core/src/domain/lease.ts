/** Worker lease with a fencing token that rises on every claim. */
export interface Lease {
  readonly leaseOwner: string | null
  readonly leaseExpiresAt: string | null
  readonly fence: number
}
