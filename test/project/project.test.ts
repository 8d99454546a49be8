// pocketwatch.json: found from the files a tool is given, checked with file:line:col
// messages, and read by the tools (pw lint's arity error, pw run's void answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProject, projectFileFor, findProjectFile, loadProject } from '../../src/project/index.ts';
import { pwHere } from '../support/cli.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-project-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(path: string, text: string): string {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

describe('finding pocketwatch.json', () => {
  it('takes the nearest one up from a file or folder, and stops at the top of a repository', () => {
    const top = write('repo/pocketwatch.json', '{ "builtins": {} }');
    mkdirSync(join(dir, 'repo/.git'));
    const script = write('repo/game/rooms/inn.pw', '');
    expect(projectFileFor(script)).toBe(top);
    expect(projectFileFor(join(dir, 'repo/game'))).toBe(top);
    const near = write('repo/game/pocketwatch.json', '{}');
    expect(projectFileFor(script)).toBe(near);
    // above the repository's top nothing is looked for
    write('pocketwatch.json', '{}');
    write('other/.git/HEAD', '');
    expect(projectFileFor(write('other/a.pw', ''))).toBe(null);
  });

  it('refuses files of two game folders', () => {
    const a = write('two/a/pocketwatch.json', '{}');
    const b = write('two/b/pocketwatch.json', '{}');
    mkdirSync(join(dir, 'two/.git'));
    expect(findProjectFile([write('two/a/x.pw', '')])).toBe(a);
    expect(() => findProjectFile([join(dir, 'two/a/x.pw'), write('two/b/y.pw', '')])).toThrow(/more than one game folder/);
    expect(b).toContain('two');
  });
});

describe('reading pocketwatch.json', () => {
  it('gives the declarations, names lower-cased, answers kept', () => {
    const text = '{ "builtins": { "Say": { "params": ["who", "text"], "doc": "Shows a line.", "waits": true, "answers": ["ok", 2] } } }';
    expect(parseProject(text, 'pocketwatch.json')).toEqual([{ name: 'say', params: ['who', 'text'], doc: 'Shows a line.', waits: true, answers: ['ok', 2] }]);
  });

  it('names the file, line and column of what is wrong', () => {
    const bad = (text: string) => () => parseProject(text, 'game/pocketwatch.json');
    expect(bad('{\n  "builtins": {\n    "say": { "params": ["who",] }\n  }\n}\n')).toThrow(
      'game/pocketwatch.json:3:31: pocketwatch.json is not valid JSON: a comma before "]": JSON allows none there',
    );
    expect(bad('{ "builtins": { } ')).toThrow('game/pocketwatch.json:1:19: pocketwatch.json is not valid JSON: the text ends where "}" should be');
    expect(bad('{ "builtins": { "say": { "doc": "a\nb" } } }')).toThrow(/pocketwatch\.json:1:35: pocketwatch\.json is not valid JSON: a line break inside a string/);
    expect(bad('{\n  "builtin": {}\n}\n')).toThrow('game/pocketwatch.json:2:3: "builtin" is not a setting of pocketwatch.json — did you mean "builtins"?');
    expect(bad('{\n  "builtins": {\n    "say": {\n      "params": ["who", 3]\n    }\n  }\n}\n')).toThrow(
      'game/pocketwatch.json:4:7: builtin "say" (params): parameter 2 should be a name (letters, digits and _), not number 3',
    );
    expect(bad('{ "builtins": { "delay": { "params": [] } } }')).toThrow(/pocketwatch\.json:1:17: builtin "delay": "delay" is the name of a Pocketwatch builtin/);
    expect(bad('{ "builtins": [] }')).toThrow(/"builtins": builtins should be an object of declarations/);
    expect(bad('[]')).toThrow(/should hold an object/);
  });

  it('is bad usage for the tools: a ProjectError', () => {
    write('broken/pocketwatch.json', '{ "builtins": 3 }');
    mkdirSync(join(dir, 'broken/.git'));
    expect(() => loadProject([write('broken/x.pw', '')])).toThrow(/pocketwatch\.json:1:3: "builtins": builtins should be an object/);
  });
});

describe('the tools read it', () => {
  const PROJECT = '{\n  "builtins": {\n    "say": { "params": ["who", "text"], "doc": "Shows a line.", "waits": true },\n    "bonus": { "params": [], "doc": "The bonus." }\n  }\n}\n';

  it('pw lint reports a host builtin called with the wrong number of arguments', async () => {
    write('lint/pocketwatch.json', PROJECT);
    mkdirSync(join(dir, 'lint/.git'));
    write('lint/inn.pw', 'on startup\n  say ("vlad")\nend\n');
    const r = await pwHere(['lint', 'inn.pw'], join(dir, 'lint'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('inn.pw:2:3: error: say takes 2 arguments (say (who, text)), but 1 was given');
  });

  it('pw run gives a returning one void and answers a waiting one with void a heartbeat later, traced', async () => {
    write('run/pocketwatch.json', PROJECT);
    mkdirSync(join(dir, 'run/.git'));
    write('run/inn.pw', 'on startup\n  print (bonus ())\n  a = say ("vlad", "A room?")\n  print (a)\n  print ("answered at " .. ticks ())\nend\n');
    const r = await pwHere(['run', 'inn.pw', '--trace', 'trace.jsonl'], join(dir, 'run'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('void\nvoid\nanswered at 3\n');
    const trace = readFileSync(join(dir, 'run/trace.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(trace.filter((e) => e.ev === 'request' || e.ev === 'answer')).toEqual([
      { t: 0, ev: 'request', request: 1, builtin: 'say', args: ['vlad', 'A room?'] },
      { t: 50, ev: 'answer', request: 1, builtin: 'say', value: null, auto: true },
    ]);
  });

  it('pw run refuses a broken pocketwatch.json as bad usage, naming the place', async () => {
    write('badrun/pocketwatch.json', '{ "builtins": { "say": { "waits": "yes" } } }');
    mkdirSync(join(dir, 'badrun/.git'));
    write('badrun/inn.pw', 'on startup\nend\n');
    const r = await pwHere(['run', 'inn.pw'], join(dir, 'badrun'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pocketwatch.json:1:26: builtin "say" (waits): waits should be true or false, not "yes"');
  });
});
