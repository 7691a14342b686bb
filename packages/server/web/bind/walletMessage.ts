/** Sorted keys, no whitespace: the payload form the service verifies. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort)
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>
      return Object.fromEntries(
        Object.keys(o)
          .sort()
          .filter((k) => o[k] !== undefined)
          .map((k) => [k, sort(o[k])]),
      )
    }
    return v
  }
  return JSON.stringify(sort(value))
}

/** The service's four-line wallet message (contract "Wallet authorization"). */
export function walletMessage(
  domain: string,
  action: string,
  payload: unknown,
): string {
  return [
    'service venue binding v1',
    `domain=${domain}`,
    `action=${action}`,
    `payload=${canonicalJson(payload)}`,
  ].join('\n')
}

/** 24 random base64url characters: an authorization nonce. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** Unix seconds `s` from now. */
export const secondsFromNow = (s: number): number =>
  Math.floor(Date.now() / 1000) + s
