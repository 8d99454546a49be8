// Events and their arguments: a literal event sent with arguments its handler does not
// take (PW111; too many is also a runtime error), and an engine event's handler
// declaring parameters the engine never fills (PW112).
import { describe, expect, it } from 'vitest';
import { loadLinted } from '../../src/lint/index.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless } from '../../src/hosts/headless.ts';

function lint(source: string): string[] {
  const r = loadLinted([{ file: 'test.pw', source }]);
  if (!r.program) throw new Error(`does not compile: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r.warnings.map((d) => `${d.line}:${d.col} ${d.code}: ${d.message}`);
}

const BOB = `
actor bob
  on greet (who, mood)
    print (who)
  end
endactor
`;

describe('PW111: arguments of a sent event', () => {
  it("warns on too many and too few, naming the handler's signature", () => {
    expect(lint(`${BOB}on startup\n  sendtoactor ("bob", "greet", "x", "y", "z")\n  sendtoactor ("bob", "greet", "x")\nend\n`)).toEqual([
      `8:3 PW111: sendtoactor sends 3 arguments with "greet", but actor bob's on greet (who, mood) takes 2 arguments: sending more is a runtime error`,
      `9:3 PW111: sendtoactor sends 1 argument with "greet", but actor bob's on greet (who, mood) takes 2 arguments: the rest are void`,
    ]);
  });

  it('is quiet when the count fits, or when the object or event is worked out at run time', () => {
    expect(lint(`${BOB}on startup\n  sendtoactor ("bob", "greet", "x", "y")\n  e = "greet"\n  sendtoactor ("bob", e, 1, 2, 3)\nend\n`)).toEqual([]);
  });

  it("sendtoscene: only when no set's handler fits", () => {
    const sets = `set a\n  on ring (n)\n  end\nendset\nset b\n  on ring\n  end\nendset\n`;
    expect(lint(`${sets}on startup\n  gotoset ("a")\n  sendtoscene ("ring", 1)\nend\n`)).toEqual([]);
    expect(lint(`${sets}on startup\n  gotoset ("a")\n  sendtoscene ("ring", 1, 2)\nend\n`)).toEqual([
      `11:3 PW111: sendtoscene sends 2 arguments with "ring", but set a's on ring (n) takes 1 argument: sending more is a runtime error`,
    ]);
  });
});

describe('too many arguments sent is a runtime error', () => {
  for (const jit of [true, false]) {
    it(`names the handler's signature (${jit ? 'generated code' : 'interpreter'})`, () => {
      // a name worked out at run time, so nothing catches it before it runs
      const text = `${BOB}on startup\n  e = "gre" .. "et"\n  sendtoactor ("bob", e, "a", "b")\n  sendtoactor ("bob", e, "x", "y", "z")\n  print ("not reached")\nend\n`;
      const loaded = loadProgram([{ file: 'bob.pw', source: text }]);
      const prints: string[] = [];
      const errors: string[] = [];
      const r = runHeadless(loaded.program!, { print: (t) => prints.push(t), diagnostic: (d) => errors.push(`${d.line}: ${d.message}`) }, { until: 60_000, fps: 60, jit });
      expect(r.exit).toBe(1);
      expect(prints).toEqual(['a']);
      expect(errors).toEqual([`10: sendtoactor: actor bob's on greet (who, mood) takes 2 arguments, not 3`]);
    });
  }
});

describe('PW112: parameters of engine events', () => {
  it('warns when a handler declares more than the engine passes', () => {
    expect(lint(`set hall\n  on openset (from)\n  end\n  on key (name, how)\n  end\n  on click (who)\n  end\nendset\non startup\n  gotoset ("hall")\nend\n`)).toEqual([
      `2:6 PW112: the engine delivers openset with no arguments: "from" is void when it does (docs/world.md)`,
      `4:6 PW112: the engine delivers key with the key's name: "how" is void when it does (docs/world.md)`,
      `6:6 PW112: the engine delivers click with no arguments: "who" is void when it does (docs/world.md)`,
    ]);
  });

  it('is quiet for on key (name)', () => {
    expect(lint(`set hall\n  on key (name)\n    print (name)\n  end\nendset\non startup\n  gotoset ("hall")\nend\n`)).toEqual([]);
  });
});
