import { readFileSync, readlinkSync } from 'node:fs'
import { hostname } from 'node:os'
import type { WorkerProcess } from '@dn/core'

/**
 * This machine and process namespace (Linux): the hostname alone is not
 * enough, since two containers may share one and a pid means something
 * only inside its namespace, and a reboot starts pids again.
 */
function hostIdentity(): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    const pidNamespace = readlinkSync('/proc/self/ns/pid')
    return `${hostname()}|${boot}|${pidNamespace}`
  } catch {
    return null
  }
}

/** Whether `pid` runs here: signal 0 checks without sending anything. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // it exists but is not ours to signal
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The process this worker runs in. */
export function currentWorkerProcess(): WorkerProcess {
  return { host: hostIdentity(), pid: process.pid, isRunning }
}
