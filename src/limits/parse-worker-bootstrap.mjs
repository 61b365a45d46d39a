// Parse child entry from the TypeScript sources (tests, `tsx`): teach this process TypeScript
// (tsx), then load the real worker. Plain .mjs so that it loads the same way under `tsx`, under
// vitest and from compiled code.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
