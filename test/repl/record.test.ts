// :record on FILE / :record off through `pw repl` with stdin piped: what the author did,
// written as an oracle that pw check passes, and fails once its expectation is edited.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { repl } from './piped.ts';
import { pwHere, type PwRun } from '../support/cli.ts';

const DOOR = `prop door
  property opened = 0
  on click
    opened = opened + 1
    print ("door opened " .. opened .. " at " .. gametime ())
  end
endprop

set hall
  on key (name)
    print ("key " .. name .. " at " .. gametime ())
  end
endset

on startup
  gotoset ("hall")
  print ("started")
end
`;

const KEEPER = `on startup
  choice = ask ("vlad", "Stay the night?")
  print (choice .. " at " .. gametime ())
  later = ask ("vlad", "Breakfast?")
  print ("never answered: " .. later)
end
`;

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pw-record-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** `pw check FILE` (in this process). */
function check(file: string, cwd: string): Promise<PwRun> {
  return pwHere(['check', file], cwd);
}

describe(':record in the piped REPL', () => {
  it('writes the clicks and keys with the game times they arrived, and what the world did; pw check passes it', async () => {
    const dir = folder({ 'door.pw': DOOR });
    const r = await repl(':pause\n:step 5\n:record on test/door.oracle\n:step 3\n:click door\n:step 4\n:key space\n:step 2\n:click prop door\n:step 10\n:record off\n', ['door.pw'], dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // the recording starts the world again: its startup prints once more
    expect(r.stdout.split('\n').filter((l) => l === 'started')).toHaveLength(2);
    const text = readFileSync(join(dir, 'test/door.oracle'), 'utf8');
    const head = text.slice(0, text.indexOf('== expect'));
    expect(head).toBe(
      '-- oracle: recorded in pw repl\n-- until: 950ms\n-- keep-going: yes\n-- load: ../door.pw\n' + '-- click: 200 prop door\n-- key: 400 down space\n-- key: 400 up space\n-- click: 500 prop door\n',
    );
    expect(text).toContain('{"t":0,"ev":"print","text":"started"}\n');
    expect(text).toContain('{"t":200,"ev":"print","text":"door opened 1 at 200"}\n');
    expect(text).toContain('{"t":400,"ev":"print","text":"key space at 400"}\n');
    expect(text).toContain('{"t":500,"ev":"print","text":"door opened 2 at 500"}\n');
    expect(text).not.toContain('"wall"');
    const c = await check('test/door.oracle', dir);
    expect(c.stdout).toContain('PASS test/door.oracle');
    expect(c.code).toBe(0);
  });

  it('an edited expectation makes pw check fail at the edited line', async () => {
    const dir = folder({ 'door.pw': DOOR });
    const r = await repl(':pause\n:record on door.oracle\n:click door\n:step 3\n:record off\n', ['door.pw'], dir);
    expect(r.stderr).toBe('');
    const file = join(dir, 'door.oracle');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('-- load: door.pw\n-- click: 50 prop door\n');
    expect((await check('door.oracle', dir)).code).toBe(0);
    const edited = text.replace('"door opened 1 at 50"', '"door opened 2 at 50"');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const c = await check('door.oracle', dir);
    expect(c.code).toBe(1);
    expect(c.stdout).toContain('FAIL door.oracle');
    expect(c.stdout).toContain('- expected  {"t":50,"ev":"print","text":"door opened 2 at 50"}');
    expect(c.stdout).toContain('+ actual    {"t":50,"ev":"print","text":"door opened 1 at 50"}');
  });

  it('answers to a waiting host builtin are recorded; a request left open stays open in the oracle', async () => {
    const dir = folder({ 'keeper.pw': KEEPER, 'pocketwatch.json': JSON.stringify({ builtins: { ask: { params: ['who', 'question'], waits: true } } }) });
    const r = await repl(':pause\n:record on keeper.oracle\n:step 4\n:answer 1 "stay"\n:step 6\n:record off\n', ['keeper.pw'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('stay at 250');
    const text = readFileSync(join(dir, 'keeper.oracle'), 'utf8');
    // the world started again numbers its requests from 1 again
    expect(text).toMatch(/^-- answer: 250 1 "stay"$/m);
    expect(text).toMatch(/^-- answer: 550 2 null$/m);
    expect(text).not.toContain('never answered');
    expect((await check('keeper.oracle', dir)).code).toBe(0);
  });

  it('says when the session did what an oracle does not replay (code typed at the prompt)', async () => {
    const dir = folder({ 'door.pw': DOOR });
    const r = await repl(':pause\n:record on typed.oracle\n:step 2\nprint ("typed")\n:step 2\n:record off\n', ['door.pw'], dir);
    expect(r.stderr).toContain('wrote typed.oracle');
    expect(r.stderr).toContain('replayed it does not do what the session did');
    expect(r.stderr).toContain('- expected  {"t":100,"ev":"print","text":"typed"}');
  });

  it('refuses what it cannot do, with a message', async () => {
    const dir = folder({ 'door.pw': DOOR });
    const r = await repl(':record off\n:record on notes.txt\n:record on\n:record sideways\n:record on a.oracle\n:record on b.oracle\n:record off b.oracle\n', ['door.pw'], dir);
    const err = r.stderr.split('\n');
    expect(err[0]).toBe('not recording (:record on FILE.oracle starts a recording, :record off writes it)');
    expect(err[1]).toBe(":record on notes.txt: an oracle file's name ends in .oracle");
    expect(err[2]).toBe(':record on needs one file name, e.g. :record on test/oracles/door.oracle');
    expect(err[3]).toBe(':record takes on or off: :record on FILE.oracle starts a recording, :record off writes it');
    expect(err[4]).toBe('already recording to a.oracle: :record off writes it first');
    expect(err[5]).toMatch(/^:record off takes no file name/);
  });

  it('refuses a place the oracle cannot be written to before the world starts again', async () => {
    const dir = folder({ 'door.pw': DOOR });
    // a folder where the oracle file would go
    mkdirSync(join(dir, 'taken.oracle'));
    const r = await repl(':record on taken.oracle\n:record off\n', ['door.pw'], dir);
    const err = r.stderr.split('\n');
    expect(err[0]).toMatch(/^:record on taken\.oracle: cannot write the oracle to "taken\.oracle" \(/);
    // the refused one started nothing
    expect(err[1]).toBe('not recording (:record on FILE.oracle starts a recording, :record off writes it)');
  });

  it('leaving the REPL while recording writes the oracle, and pw check passes it', async () => {
    const dir = folder({ 'door.pw': DOOR });
    const r = await repl(':record on left.oracle\n', ['door.pw'], dir);
    expect(r.status).toBe(0);
    const c = await check('left.oracle', dir);
    expect(c.stdout).toContain('1 oracle: 1 passed');
    expect(c.code).toBe(0);
  });
});
