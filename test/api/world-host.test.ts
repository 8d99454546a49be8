// A host callback that throws is the host's own error, not Pocketwatch's and not the
// script's: the world finishes the frame it was in, stays as it was (not halted, no
// script error counted), and the call that drove the frame throws HostCallbackError
// with the host's error as its cause. A call made from inside a callback is named as
// the method it was.
import { describe, it, expect } from 'vitest';
import { compile, World, HostCallbackError, type WorldHost } from '../../src/api/index.ts';
import { runHeadless } from '../../src/api/node.ts';

const program = compile([{ name: 'a.pw', text: 'on startup\n  print ("one")\n  print ("two")\n  delay (100)\n  print ("three")\nend\n' }]);

function caught(work: () => void): unknown {
  try {
    work();
  } catch (err) {
    return err;
  }
  return null;
}

describe('a host callback that throws', () => {
  it('reaches the host from frame () as HostCallbackError, its own error the cause; the frame finishes and the world goes on', () => {
    const boom = new Error('boom');
    const printed: string[] = [];
    let fail = true;
    const host: WorldHost = {
      print: (t) => {
        printed.push(t);
        if (fail && t === 'one') throw boom;
      },
    };
    const w = new World(program, { host });
    const err = caught(() => w.frame(10));
    expect(err).toBeInstanceOf(HostCallbackError);
    const e = err as HostCallbackError;
    expect(e.name).toBe('HostCallbackError');
    expect(e.callback).toBe('print');
    expect(e.cause).toBe(boom);
    expect(e.message).toBe("the host's print callback threw: boom");
    expect(e.message).not.toMatch(/internal error|not your script/);
    // the rest of the frame ran: the second print came after the one that threw
    expect(printed).toEqual(['one', 'two']);
    expect(w.halted).toBe(false);
    expect(w.errors).toBe(0);
    fail = false;
    for (let ms = 20; ms <= 2500; ms += 20) w.frame(ms);
    expect(printed).toEqual(['one', 'two', 'three']);
  });

  it('counts the other throws of the same frame, and reports the first', () => {
    const w = new World(program, {
      host: {
        print: (t) => {
          throw new Error(`no ${t}`);
        },
      },
    });
    const e = caught(() => w.frame(10)) as HostCallbackError;
    expect(e.message).toBe("the host's print callback threw: no one (and host callbacks threw once more in the same frame)");
    expect((e.cause as Error).message).toBe('no one');
  });

  for (const callback of ['trace', 'sound', 'diagnostic'] as const) {
    it(`says which callback threw: ${callback}`, () => {
      const p = compile([{ name: 'b.pw', text: 'on startup\n  defsound ("tick", 50)\n  playsound ("tick")\n  x = 1 / 0\nend\n' }]);
      const thrown = 'not an Error';
      const w = new World(p, {
        keepGoing: true,
        host: {
          [callback]: () => {
            throw thrown;
          },
        },
      });
      const e = caught(() => w.frame(10)) as HostCallbackError;
      expect(e).toBeInstanceOf(HostCallbackError);
      expect(e.callback).toBe(callback);
      expect(e.cause).toBe(thrown);
      expect(e.message).toMatch(new RegExp(`^the host's ${callback} callback threw: not an Error`));
    });
  }

  it('a method called from inside a callback is refused under its own name, and the host sees that as the cause', () => {
    for (const [name, call] of [
      ['frame ()', (w: World) => w.frame(5)],
      ['step ()', (w: World) => w.step()],
      ['save ()', (w: World) => w.save()],
      ['start ()', (w: World) => w.start()],
    ] as const) {
      let w: World;
      const host: WorldHost = { print: () => call(w) };
      w = new World(program, { host });
      // the first frame starts the world: the callback runs inside start ()'s work
      const e = caught(() => w.frame(10)) as HostCallbackError;
      expect(e).toBeInstanceOf(HostCallbackError);
      expect((e.cause as Error).message).toMatch(new RegExp(`^${name.replace(/[()]/g, '\\$&')} cannot be called from inside a host callback`));
      expect(e.message).toContain(`the host's print callback threw: ${name} cannot be called from inside a host callback`);
    }
  });

  it('runHeadless throws it too, stopping at the frame it happened in', () => {
    const printed: string[] = [];
    const err = caught(() =>
      runHeadless(program, {
        host: {
          print: (t) => {
            printed.push(t);
            if (t === 'two') throw new RangeError('full');
          },
        },
      }),
    ) as HostCallbackError;
    expect(err).toBeInstanceOf(HostCallbackError);
    expect(err.cause).toBeInstanceOf(RangeError);
    expect(printed).toEqual(['one', 'two']);
  });
});
