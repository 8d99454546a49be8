// A process that runs guarded jobs back to back, as the interactive REPL runs its frames,
// and counts the SIGINTs it is sent (test/repl/interrupt.test.ts sends them).
import { Interrupter } from '../../src/repl/interrupt.ts';

const guard = new Interrupter();
let sigints = 0;
let sum = 0;
process.on('SIGINT', () => void sigints++);
const frame = (): void => {
  for (let k = 0; k < 20; k++)
    guard.run(() => {
      for (let i = 0; i < 2000; i++) sum += i;
    });
  setImmediate(frame);
};
frame();
process.stdout.write('ready\n');
setTimeout(
  () => {
    process.stdout.write(`alive after ${sigints} SIGINTs (${sum > 0})\n`);
    process.exit(0);
  },
  Number(process.argv[2] ?? 2000),
);
