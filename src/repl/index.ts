// `pw repl [FILE…]`: the interactive REPL on a terminal, or the plain line mode when
// stdin is piped. ink and react are loaded only for the interactive one.
import type { Readable } from 'node:stream';
import { ReplSession } from './session.ts';
import { runLineMode } from './lines.ts';
import { stderr, stdout } from '../node/terminal.ts';
import { Watcher } from './watch.ts';
import { loadProject } from '../project/index.ts';

export interface ReplArgs {
  files: string[];
  seed: number;
  loopGuard: number;
  /** Reload the world whenever a loaded file is saved. */
  watch?: boolean;
  /** What to read in place of the process's stdin (then the plain line mode). */
  input?: Readable;
}

export async function replCommand(a: ReplArgs): Promise<number> {
  const interactive = a.input === undefined && process.stdin.isTTY === true && stdout.isTerminal();
  // the game folder's host builtins: no host implements them here, and :answer answers the waiting ones
  const { builtins } = loadProject(a.files);
  const session = new ReplSession({ files: a.files, seed: a.seed, loopGuard: a.loopGuard, trace: interactive, builtins });
  const watcher = a.watch
    ? new Watcher(
        () => session.watched(),
        () => {
          session.watchReload();
          stdout.flush();
          stderr.flush();
        },
      )
    : null;
  if (watcher) session.onFilesChanged = () => watcher.sync();
  try {
    if (!interactive) return await runLineMode(session, { input: a.input ?? process.stdin, out: stdout, err: stderr });
    // React's development build checks every render; an author's terminal wants the fast one
    process.env.NODE_ENV ??= 'production';
    const { runInteractive } = await import('./ui.tsx');
    return await runInteractive(session);
  } finally {
    watcher?.close();
  }
}
