// the service's own message builder: pure (no Node API), so the page
// bundles the very code the server verifies with instead of a copy
export { walletMessage } from '../../../core/src/auth/walletMessage.js'

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
