// The module map: no import cycles between files or between folders, every folder of the
// code listed, and arrows between the layers pointing down only (docs/architecture.md
// draws the map).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import madge from 'madge';

const graph = await madge(['src', 'grammar', 'playground', 'examples', 'tools', 'editors/vscode/src', 'editors/vscode/tools', 'editors/vscode/build.mjs'], {
  fileExtensions: ['ts', 'tsx', 'mjs'],
  baseDir: '.',
  excludeRegExp: [/\.d\.ts$/],
});
const deps = graph.obj();

/** The layers, lowest first. A module may import from its own layer only where its entry in BELOW says so. */
const LAYERS: string[][] = [
  ['grammar', 'src/errors', 'src/time', 'src/trace', 'src/hash'], // ground
  ['src/signatures'], // what a call may pass to a builtin, ours and the host's
  ['src/vm'], // the machine: one opcode table, one call door, the guard
  ['src/compiler'], // the language: it knows builtins by their signatures only
  ['src/world', 'src/builtins'], // services over world state
  ['src/engine'],
  ['src/session'], // the running world under every face: save, restore, inspect, a thread's frames
  ['src/api', 'src/hosts', 'src/timeline', 'src/lint', 'src/explore', 'src/oraclefile'], // clients: the package core, the clocks that drive a world, traces, lints, the explorer's search, the oracle file's text
  ['src/node', 'src/protocol', 'src/project'], // Node only: files and terminal, message framing on stdio, the game folder's project file
  ['src/oracle', 'pocketwatch/node'], // oracles, the package's Node entries
  ['src/cli', 'src/repl', 'src/lsp', 'src/dap', 'playground', 'examples'], // faces
  ['tools', 'editors'], // the build and the editor extension
];

/** What each module may import from (besides itself). */
const BELOW: Record<string, string[]> = {
  grammar: [],
  'src/errors': ['grammar'],
  'src/time': ['src/errors'],
  'src/trace': [],
  'src/hash': [],
  // what the compiler knows of builtins, ours and the host's: no builtin itself
  'src/signatures': ['src/errors'],
  'src/vm': ['grammar', 'src/errors', 'src/time', 'src/trace', 'src/hash', 'src/signatures'],
  'src/world': ['src/vm', 'src/errors', 'src/time', 'src/trace'],
  'src/builtins': ['src/vm', 'src/world', 'src/errors', 'src/time', 'src/trace', 'src/signatures'],
  // the compiler checks calls against the signature table, never against the builtins
  'src/compiler': ['grammar', 'src/errors', 'src/vm', 'src/signatures', 'src/time', 'src/hash'],
  'src/lint': ['grammar', 'src/errors', 'src/compiler', 'src/vm', 'src/time', 'src/builtins', 'src/signatures', 'src/engine'],
  'src/engine': ['src/vm', 'src/world', 'src/builtins', 'src/errors', 'src/time', 'src/trace', 'src/compiler', 'src/hash', 'src/signatures'],
  // one running world as every face sees it; in the package core, so no Node built-in
  'src/session': ['src/vm', 'src/world', 'src/builtins', 'src/errors', 'src/time', 'src/trace', 'src/engine'],
  // the package core: runs in a browser (test/api/core.test.ts checks it imports no Node built-in)
  'src/api': ['grammar', 'src/errors', 'src/time', 'src/trace', 'src/vm', 'src/world', 'src/builtins', 'src/compiler', 'src/engine', 'src/session', 'src/signatures', 'src/explore', 'src/oraclefile'],
  // the oracle file's text, read and written, and the recorder that writes one from a running world: no Node, so the package core offers it
  'src/oraclefile': ['src/errors', 'src/time', 'src/trace', 'src/vm', 'src/world', 'src/engine', 'src/hosts'],
  // the explorer's search (pw explore): a client of the headless host, in the package core
  'src/explore': ['src/errors', 'src/time', 'src/trace', 'src/vm', 'src/world', 'src/builtins', 'src/engine', 'src/session', 'src/hosts', 'src/signatures'],
  'src/hosts': ['src/errors', 'src/time', 'src/trace', 'src/vm', 'src/world', 'src/builtins', 'src/compiler', 'src/engine', 'src/session', 'src/signatures'],
  // the game folder's project file, for the tools on Node
  'src/project': ['src/compiler', 'src/engine', 'src/errors', 'src/signatures', 'src/node'],
  // a client of traces alone: it never sees the engine that wrote them
  'src/timeline': ['src/trace'],
  // the framing of LSP and DAP messages on a byte stream
  'src/protocol': [],
  'src/node': ['src/compiler'],
  'src/oracle': ['grammar', 'src/errors', 'src/time', 'src/trace', 'src/vm', 'src/world', 'src/compiler', 'src/engine', 'src/hosts', 'src/node', 'src/project', 'src/explore', 'src/oraclefile'],
  'pocketwatch/node': ['src/api', 'src/time', 'src/engine', 'src/world', 'src/compiler', 'src/hosts', 'src/node', 'src/project', 'src/oracle', 'src/explore'],
  'src/lsp': ['src/protocol', 'grammar', 'src/errors', 'src/time', 'src/signatures', 'src/builtins', 'src/compiler', 'src/lint', 'src/engine', 'src/node', 'src/project'],
  'src/dap': [
    'src/protocol',
    'grammar',
    'src/errors',
    'src/time',
    'src/trace',
    'src/vm',
    'src/world',
    'src/builtins',
    'src/compiler',
    'src/lint',
    'src/engine',
    'src/session',
    'src/api',
    'src/hosts',
    'src/node',
    'src/project',
  ],
  'src/repl': [
    'grammar',
    'src/errors',
    'src/time',
    'src/trace',
    'src/vm',
    'src/world',
    'src/builtins',
    'src/signatures',
    'src/compiler',
    'src/lint',
    'src/engine',
    'src/session',
    'src/api',
    'src/hosts',
    'src/timeline',
    'src/node',
    'src/project',
    'src/oracle',
    'src/oraclefile',
  ],
  // the command line: it starts the other faces
  'src/cli': [
    'src/errors',
    'src/time',
    'src/trace',
    'src/hash',
    'src/builtins',
    'src/compiler',
    'src/lint',
    'src/engine',
    'src/session',
    'src/hosts',
    'src/timeline',
    'src/explore',
    'src/node',
    'src/project',
    'src/oracle',
    'src/oraclefile',
    'src/repl',
    'src/lsp',
    'src/dap',
  ],
  // the page: the public package only
  playground: ['src/api'],
  // the example game: the package by its name (`pocketwatch`) and nothing of the source tree
  examples: [],
  tools: [],
  editors: ['grammar', 'src/builtins', 'src/lsp'],
};

/** The module a file belongs to: its folder, but for the package's Node entry points. */
function moduleOf(file: string): string {
  if (file === 'src/api/node.ts' || file === 'src/api/vitest.ts') return 'pocketwatch/node';
  const parts = file.split('/');
  return parts[0] === 'src' ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function layerOf(mod: string): number {
  return LAYERS.findIndex((l) => l.includes(mod));
}

/** Module → modules it imports, from the files. */
const arrows = new Map<string, Set<string>>();
for (const [file, imports] of Object.entries(deps)) {
  const from = moduleOf(file);
  for (const to of imports.map(moduleOf)) {
    if (to === from) continue;
    if (!arrows.has(from)) arrows.set(from, new Set());
    arrows.get(from)!.add(to);
  }
}

describe('the module map', () => {
  it('keeps the compiler off the builtins: it reads their signatures only', () => {
    const compilerImports = Object.entries(deps)
      .filter(([file]) => moduleOf(file) === 'src/compiler')
      .flatMap(([file, imports]) => imports.filter((to) => moduleOf(to) === 'src/builtins').map((to) => `${file} → ${to}`));
    expect(Object.keys(deps).some((f) => moduleOf(f) === 'src/compiler')).toBe(true);
    expect(compilerImports).toEqual([]);
  });

  it('makes every running engine in one place: the start of a session', () => {
    const makers = Object.keys(deps)
      .filter((f) => /^(src|playground|examples)\//.test(f) && f !== 'src/engine/engine.ts')
      .filter((f) => /\bnew Engine\(/.test(readFileSync(f, 'utf8')));
    expect(makers).toEqual(['src/session/start.ts']);
  });

  it('lists every folder of the code in one layer', () => {
    const folders = [
      'grammar',
      'playground',
      'examples',
      'tools',
      'editors',
      'pocketwatch/node',
      ...readdirSync('src', { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => `src/${d.name}`),
    ];
    expect(
      folders.filter((f) => !(f in BELOW)),
      'folders missing from BELOW',
    ).toEqual([]);
    expect(
      folders.filter((f) => LAYERS.filter((l) => l.includes(f)).length !== 1),
      'folders not in exactly one layer',
    ).toEqual([]);
    expect(
      Object.keys(BELOW).filter((f) => !folders.includes(f)),
      'listed folders that are gone',
    ).toEqual([]);
  });

  it('allows no arrow pointing up a layer', () => {
    const up: string[] = [];
    for (const [from, allowed] of Object.entries(BELOW)) for (const to of allowed) if (layerOf(to) > layerOf(from)) up.push(`${from} → ${to}`);
    expect(up).toEqual([]);
  });

  it('has no import cycles between files', () => {
    expect(graph.circular()).toEqual([]);
  });

  it('has no import cycles between folders', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (m: string, path: string[]): void => {
      if (state.get(m) === 'done') return;
      if (state.get(m) === 'open') {
        cycles.push([...path.slice(path.indexOf(m)), m].join(' → '));
        return;
      }
      state.set(m, 'open');
      for (const to of arrows.get(m) ?? []) visit(to, [...path, m]);
      state.set(m, 'done');
    };
    for (const m of arrows.keys()) visit(m, []);
    expect(cycles).toEqual([]);
  });

  it('imports only what each module may import', () => {
    const wrong: string[] = [];
    for (const [file, imports] of Object.entries(deps)) {
      const from = moduleOf(file);
      const allowed = BELOW[from] ?? [];
      for (const to of imports) {
        const target = moduleOf(to);
        if (target !== from && !allowed.includes(target)) wrong.push(`${file} → ${to}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reads and writes files only through src/node (the faces and the oracle checker included)', () => {
    const fs = Object.keys(deps).filter((f) => f.startsWith('src/') && !f.startsWith('src/node/'));
    const users = fs.filter((f) => /from 'node:fs'/.test(readFileSync(f, 'utf8')));
    // watching files for changes is the REPL's own business
    expect(users).toEqual(['src/repl/watch.ts']);
  });
});
