/**
 * Encrypts venue credentials at rest. `aad` binds a ciphertext to its row
 * (e.g. `binding|owner|venue`), so a ciphertext copied into another row
 * does not decrypt.
 */
export interface Secrets {
  encrypt(plaintext: string, aad: string): string
  /** Throws when the ciphertext, its tag or the aad do not match. */
  decrypt(ciphertext: string, aad: string): string
}
