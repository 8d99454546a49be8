// A REPL session on virtual time: no frame timer, a wall clock the test moves.
import { ReplSession, type SessionOptions } from '../../src/repl/session.ts';
import type { LogEntry } from '../../src/repl/events.ts';

export const WORLD = `
set engine
  on openset
    makeloop ("scene", "hiss", 45)
    cricket ("rumble", "rumblesnd", 0, 50, 200, 20, 0)
  end
  on hiss
    print ("hiss")
    makeloop ("scene", "hiss", 45)
  end
endset

actor steward
endactor

prop faucet
  on click
    print ("faucet on")
    delay (120)
    print ("faucet off")
  end
endprop

on startup
  defsound ("rumblesnd", 1000)
  defstar ("far", 1000, 0, 0)
  gotoset ("engine")
  walktostar ("steward", "far")
end
`;

export interface TestRepl {
  s: ReplSession;
  log: LogEntry[];
  /** Lets `ms` of wall time pass at 60 display frames a second. */
  run(ms: number): void;
  /** Moves the wall clock without drawing a frame (a stalled or paused host). */
  wait(ms: number): void;
  /** Submits a line (or group) and returns what it logged. */
  say(text: string): LogEntry[];
  texts(kind?: string): string[];
  gameMs(): number;
}

export function testRepl(source: string | null = WORLD, opts: Partial<SessionOptions> = {}): TestRepl {
  let t = 0;
  const s = new ReplSession({
    wall: { now: () => t },
    timer: false,
    sources: source === null ? [] : [{ file: 'world.pw', source }],
    ...opts,
  });
  const log: LogEntry[] = [];
  s.onLog((e) => log.push(e));
  s.start();
  const frameMs = 1000 / 60;
  return {
    s,
    log,
    run(ms) {
      const n = Math.round(ms / frameMs);
      for (let i = 0; i < n; i++) {
        t += frameMs;
        // as the frame timer does: through the session, which records it (and draws none in the past)
        s.world.frameGuard(() => s.world.frame());
      }
    },
    wait(ms) {
      t += ms;
    },
    say(text) {
      const from = log.length;
      s.submit(text);
      return log.slice(from);
    },
    texts(kind) {
      return log.filter((e) => kind === undefined || e.kind === kind).map((e) => e.text);
    },
    gameMs() {
      return s.engine.state.clock.game / 3;
    },
  };
}
