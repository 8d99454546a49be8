// The module map: no import cycles anywhere in src/ and grammar/, and arrows between
// the layers point down only (docs/vm.md draws the map).
import { describe, it, expect } from 'vitest';
import madge from 'madge';

const graph = await madge(['src', 'grammar'], { fileExtensions: ['ts', 'tsx'], baseDir: '.' });
const deps = graph.obj();

/** Folders each folder may import from (besides itself); anything else is an arrow pointing up. */
const BELOW: Record<string, string[]> = {
  'grammar': [],
  'src/errors': ['grammar'],
  'src/time': ['src/errors'],
  'src/trace': [],
  'src/hash': [],
  // what the compiler knows of builtins, ours and the host's: no builtin itself
  'src/signatures': ['src/errors'],
  'src/vm': ['grammar', 'src/errors', 'src/time', 'src/trace', 'src/hash', 'src/signatures'],
  // the compiler checks calls against the signature table, never against the builtins
  'src/compiler': ['grammar', 'src/errors', 'src/vm', 'src/signatures', 'src/time', 'src/hash'],
  'src/lint': ['grammar', 'src/errors', 'src/compiler', 'src/vm', 'src/time', 'src/builtins', 'src/signatures', 'src/engine'],
  'src/world': ['src/vm', 'src/errors', 'src/time', 'src/trace'],
  'src/builtins': ['src/vm', 'src/world', 'src/errors', 'src/time', 'src/trace', 'src/signatures'],
  'src/engine': ['src/vm', 'src/world', 'src/builtins', 'src/errors', 'src/time', 'src/trace', 'src/compiler', 'src/hash', 'src/signatures'],
  // the game folder's project file, for the tools on Node
  'src/project': ['src/compiler', 'src/engine', 'src/errors', 'src/signatures'],
  // a client of traces alone: it never sees the engine that wrote them
  'src/timeline': ['src/trace'],
};

function folderOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'grammar' ? 'grammar' : `${parts[0]}/${parts[1]}`;
}

describe('the module map', () => {
  it('keeps the compiler off the builtins: it reads their signatures only', () => {
    const compilerImports = Object.entries(deps)
      .filter(([file]) => folderOf(file) === 'src/compiler')
      .flatMap(([file, imports]) => imports.filter((to) => folderOf(to) === 'src/builtins').map((to) => `${file} → ${to}`));
    expect(Object.keys(deps).some((f) => folderOf(f) === 'src/compiler')).toBe(true);
    expect(compilerImports).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(graph.circular()).toEqual([]);
  });

  it('imports only downwards between the layers', () => {
    const upward: string[] = [];
    for (const [file, imports] of Object.entries(deps)) {
      const from = folderOf(file);
      const allowed = BELOW[from];
      if (!allowed) continue;
      for (const to of imports) {
        const target = folderOf(to);
        if (target !== from && !allowed.includes(target)) upward.push(`${file} → ${to}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
