import { WebSocket } from 'ws'

/** A JSON frame as a fake's stream sends it. */
export type Frame = Record<string, unknown>

/**
 * A raw WebSocket client for the fakes' tests: every frame it got, and a
 * way to wait for one (taken out of the list when found).
 * @internal test support
 */
export async function connectFrameClient(url: string) {
  const ws = new WebSocket(url)
  const frames: Frame[] = []
  ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Frame))
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const next = async (ok: (f: Frame) => boolean, ms = 3_000) => {
    const until = Date.now() + ms
    for (;;) {
      const i = frames.findIndex(ok)
      if (i >= 0) return frames.splice(i, 1)[0] as Frame
      if (Date.now() > until) throw new Error('no such frame')
      await new Promise((r) => setTimeout(r, 5))
    }
  }
  const send = (v: unknown) => ws.send(JSON.stringify(v))
  return { ws, frames, next, send }
}
