import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 lets the old space grow past what survived its last full
 * collection before collecting again. V8's own factor (up to 4x when
 * collection is cheap) let `dn serve` climb from ~120 MB to 180-230 MB
 * under sustained POST load with ~27 MB live; at 20 % the peak stays near
 * 150 MB at the same request rate (bench/README, issue 18).
 */
const HEAP_GROWING_PERCENT = 20

/**
 * Bounds the heap's growth for a long-running dn process. An explicit
 * `node --heap-growing-percent=N` on the command line wins.
 */
export function boundHeapGrowth(): void {
  if (process.execArgv.some((a) => a.startsWith('--heap-growing-percent')))
    return
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
