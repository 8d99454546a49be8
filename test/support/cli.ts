// `pw` commands for tests: in this process (src/cli/main.ts, what the built `pw` runs,
// without Node's start-up each time), or as the built command in a child process where
// the process itself is what is tested (exit status, the real stdout and stderr).
import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';

export const PW = fileURLToPath(new URL('../../dist/pw.js', import.meta.url));

export interface PwRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface HereOptions {
  /** Changes to the environment for the while (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** What `pw repl` reads: all of a string, or a stream the test writes to as it goes. */
  input?: string | Readable;
  /** Each piece of stdout as it is flushed. */
  onStdout?: (text: string) => void;
}

/** `pw ARGS…` run in this process with `cwd` as the working folder (the process's for the while). */
export async function pwHere(args: string[], cwd: string, opts: HereOptions = {}): Promise<PwRun> {
  const out: string[] = [];
  const err: string[] = [];
  const env = opts.env ?? {};
  const was = process.cwd();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const setEnv = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  const stdin = typeof opts.input === 'string' ? Readable.from([opts.input]) : opts.input;
  process.chdir(cwd);
  setEnv(env);
  try {
    const code = await main(args, {
      stdout: (t) => {
        out.push(t);
        opts.onStdout?.(t);
      },
      stderr: (t) => err.push(t),
      stdin,
    });
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    setEnv(saved);
    process.chdir(was);
  }
}

/** `pw ARGS…` as a child process: the built command. */
export function pwProcess(args: string[], cwd: string, opts: { input?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): PwRun {
  const r = spawnSync(process.execPath, [PW, ...args], { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20, ...opts });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
