// The game folder's project file, pocketwatch.json (Node only): the host builtins every
// `pw` tool compiles against. It is found from the files and folders a tool is given: a
// folder named, or the folder of a file, then each folder up from there, stopping after
// a folder that holds .git (the top of a repository) or at the filesystem root.
//
//   { "builtins": { "say": { "params": ["who", "text"], "doc": "…", "waits": true, "answers": ["ok"] } } }
import { dirname, join, resolve } from 'node:path';
import { exists, isFolder, readTextFile, shownName, UsageError } from '../node/load.ts';
import { hostBuiltins } from '../engine/load.ts';
import { closest } from '../errors/suggest.ts';
import type { HostBuiltin } from '../signatures/table.ts';

export const PROJECT_FILE = 'pocketwatch.json';
/** A project file is a few declarations: a megabyte is far more than any needs. */
const PROJECT_MAX_BYTES = 1024 * 1024;

export interface Project {
  /** The project file, as shown in messages; null when there is none. */
  file: string | null;
  builtins: HostBuiltin[];
}

export const NO_PROJECT: Project = { file: null, builtins: [] };

/** A project file that is not valid JSON or not a project: the message starts with file:line:col. */
export class ProjectError extends UsageError {}

/** The folder a search starts from for a path given to a tool. */
function startOf(path: string): string {
  const full = resolve(path);
  // (a file not there yet, a new buffer in an editor: its folder still says where it belongs)
  return isFolder(full) ? full : dirname(full);
}

/** The project file for one file or folder: the nearest up from it, not above the repository's top; null if none. */
export function projectFileFor(path: string): string | null {
  let dir = startOf(path);
  for (;;) {
    const candidate = join(dir, PROJECT_FILE);
    if (exists(candidate)) return candidate;
    if (exists(join(dir, '.git'))) return null;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The project file of the given paths (the current folder when there are none); paths in two projects are bad usage. */
export function findProjectFile(paths: readonly string[]): string | null {
  const found = new Set((paths.length === 0 ? ['.'] : paths).map(projectFileFor));
  found.delete(null);
  if (found.size > 1) throw new UsageError(`the files belong to more than one game folder: ${[...found].map((f) => shownName(f!)).join(' and ')} (run the tool on one game at a time)`);
  return found.size === 0 ? null : [...found][0]!;
}

/** The project of the given paths: its host builtins, checked (ProjectError says where a mistake is). */
export function loadProject(paths: readonly string[]): Project {
  const file = findProjectFile(paths);
  if (file === null) return NO_PROJECT;
  const shown = shownName(file);
  return { file: shown, builtins: parseProject(readTextFile(file, shown, PROJECT_MAX_BYTES), shown) };
}

/** A project file's text checked: its host builtin declarations. */
export function parseProject(text: string, shown: string): HostBuiltin[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const { at, problem } = jsonMistake(text);
    throw new ProjectError(`${shown}:${lineCol(text, at)}: ${PROJECT_FILE} is not valid JSON: ${problem}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ProjectError(`${shown}:1:1: ${PROJECT_FILE} should hold an object, { "builtins": { … } }`);
  for (const key of Object.keys(json)) {
    if (key !== 'builtins') {
      const guess = closest(key, ['builtins']);
      throw new ProjectError(`${shown}:${keyAt(text, [key])}: "${key}" is not a setting of ${PROJECT_FILE}${guess ? ` — did you mean "${guess}"?` : ' (it has "builtins")'}`);
    }
  }
  try {
    return hostBuiltins((json as { builtins?: unknown }).builtins, (name, field) => {
      const path = ['builtins', ...(name === null ? [] : [name]), ...(field ? [field] : [])];
      return `${shown}:${keyAt(text, path)}: ${name === null ? '"builtins"' : `builtin "${name}"${field ? ` (${field})` : ''}`}`;
    });
  } catch (err) {
    if (err instanceof TypeError) throw new ProjectError(err.message);
    throw err;
  }
}

/** "line:col" of offset `pos` in `text`, both 1-based. */
function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return `${line}:${pos - before.lastIndexOf('\n')}`;
}

/** Where the key at `path` is written: each key searched for after the one before it (a file of declarations is small and plain). */
function keyAt(text: string, path: readonly string[]): string {
  let from = 0;
  let found = -1;
  for (const key of path) {
    const re = new RegExp(`${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`, 'g');
    re.lastIndex = from;
    const m = re.exec(text);
    if (m === null) break;
    found = m.index;
    from = m.index + m[0].length;
  }
  return found < 0 ? '1:1' : lineCol(text, found);
}

/**
 * Where JSON.parse gave up, and why, in words: read again by a small reader of its own
 * (JSON.parse's messages differ between Node versions, and some give no position).
 */
export function jsonMistake(text: string): { at: number; problem: string } {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const fail = (problem: string): never => {
    throw { at: i, problem };
  };
  const shown = (): string => (i >= text.length ? 'the end of the text' : JSON.stringify(text[i]));
  const expect = (c: string): void => {
    ws();
    if (text[i] !== c) fail(i >= text.length ? `the text ends where "${c}" should be` : `${shown()} where "${c}" should be`);
    i++;
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail('the text ends inside a string');
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === '\n' || c === '\r') fail('a line break inside a string (write \\n)');
      if (c === '\\') {
        i++;
        if (!'"\\/bfnrtu'.includes(text[i] ?? '')) fail(`"\\${text[i] ?? ''}" is no escape JSON knows`);
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('"\\u" needs four hex digits');
          i += 4;
        }
      }
      i++;
    }
  };
  const value = (depth: number): void => {
    ws();
    if (depth > 512) fail('lists and objects nested too deep');
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (text[i] !== '"') fail(i >= text.length ? 'the text ends where a name in quotes should be' : `${shown()} where a name in quotes should be`);
          string();
          expect(':');
        }
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === close) fail(`a comma before "${close}": JSON allows none there`);
          continue;
        }
        expect(close);
        return;
      }
    }
    if (c === '"') return string();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (m === null) fail(i >= text.length ? 'the text ends where a value should be' : `${shown()} where a value should be`);
    i += m![0].length;
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`${shown()} after the end of the value`);
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'problem' in err) return err as { at: number; problem: string };
    throw err;
  }
  return { at: 0, problem: 'JSON.parse refused it' };
}
