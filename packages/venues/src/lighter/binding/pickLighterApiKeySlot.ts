/** First API-key slot the service generates keys in (0..3 reserved, 4 legacy). */
const LIGHTER_FIRST_SERVICE_SLOT = 5
/** Lighter's highest API-key index (255 is the SDK's "all" sentinel). */
const LIGHTER_LAST_SLOT = 254
/** A slot the service never uses. */
const LIGHTER_SKIPPED_SLOT = 157

/** True for a slot the service may generate a key in: 5..254 except 157. */
export function isServiceApiKeySlot(slot: number): boolean {
  return (
    Number.isInteger(slot) &&
    slot >= LIGHTER_FIRST_SERVICE_SLOT &&
    slot <= LIGHTER_LAST_SLOT &&
    slot !== LIGHTER_SKIPPED_SLOT
  )
}

/**
 * The lowest service slot (5..254, never 157) not in `used`.
 * @throws RangeError when every service slot is taken
 */
export function pickLighterApiKeySlot(used: Iterable<number>): number {
  const taken = new Set(used)
  for (
    let slot = LIGHTER_FIRST_SERVICE_SLOT;
    slot <= LIGHTER_LAST_SLOT;
    slot++
  ) {
    if (isServiceApiKeySlot(slot) && !taken.has(slot)) return slot
  }
  throw new RangeError('no free Lighter API-key slot in 5..254 (except 157)')
}
