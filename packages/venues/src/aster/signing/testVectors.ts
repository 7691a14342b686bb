/*
 * Test fixtures from Aster's futures v3 doc (aster.md §9): the demo user,
 * signer and the signer's published private key.
 */
export const VECTOR_USER = '0x63DD5aCC6b1aa0f563956C0e534DD30B6dcF7C4e'
export const VECTOR_SIGNER = '0x21cF8Ae13Bb72632562c6Fff438652Ba1a151bb0'
export const VECTOR_KEY =
  '0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1' as const
export const VECTOR_NONCE = 1748310859508867
