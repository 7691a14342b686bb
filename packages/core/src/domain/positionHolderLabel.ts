/** A holder of a venue position as the positions read names it. */
interface HolderView {
  readonly kind: 'task_leg' | 'left_at_venue' | 'direct_orders' | 'unattributed'
  readonly taskId: string | null
  readonly leg: 'long' | 'short' | null
  readonly sizeBase: string
}

/**
 * One holder in a few words, for the `dn positions` HELD BY cell and the
 * dashboard's: a task leg by the task id's first 8 characters, what a
 * task's close left at the venue, the direct orders, and the part no one
 * in dn holds.
 */
export function positionHolderLabel(h: HolderView): string {
  const task = h.taskId?.slice(0, 8)
  switch (h.kind) {
    case 'task_leg':
      return `task ${task} ${h.leg} ${h.sizeBase}`
    case 'left_at_venue':
      return `left by task ${task} ${h.sizeBase}`
    case 'direct_orders':
      return `orders ${h.sizeBase}`
    case 'unattributed':
      return `not dn ${h.sizeBase}`
  }
}
