import { spawn } from 'node:child_process'

export interface CliRun {
  readonly code: number | null
  readonly out: string
  readonly err: string
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

/**
 * One `dn` command as a person runs it: in a pseudo-terminal (`script`
 * from util-linux), stdout and stderr interleaved as on screen, in `out`.
 */
export function runInTerminal(
  cli: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CliRun> {
  const command = [process.execPath, cli, ...args].map(quote).join(' ')
  return collect(
    'script',
    ['-q', '-e', '-c', command, '/dev/null'],
    { ...env, TERM: 'xterm', COLUMNS: '200', LINES: '60' },
    timeoutMs,
  )
}

/** One `dn` command as a script runs it: pipes, so no terminal. */
export function runPiped(
  cli: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CliRun> {
  return collect(process.execPath, [cli, ...args], env, timeoutMs)
}

function collect(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(
          `dn ${args.join(' ')} ran over ${timeoutMs} ms:\n${out}${err}`,
        ),
      )
    }, timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out, err })
    })
  })
}

/** What a terminal shows, without colour and cursor sequences. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escapes
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replaceAll('\r', '')
}
