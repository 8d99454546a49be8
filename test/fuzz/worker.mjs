// Entry point of a fuzzing worker thread: TypeScript is loaded through tsx, as the
// test runner does in the main thread.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
