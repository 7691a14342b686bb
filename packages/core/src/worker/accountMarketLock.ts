/**
 * The lock one owner's operations on one venue market take: a direct
 * order and a task leg on the same account and market never run at once
 * (their fills would be read as each other's).
 */
export function accountMarketLock(
  owner: string,
  venue: string,
  market: string,
): string {
  return `${owner}|${venue}|${market}`
}
