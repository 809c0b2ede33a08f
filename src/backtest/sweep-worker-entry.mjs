// Worker threads do not inherit the TypeScript loader the main thread registered: register it again.
import { register } from 'tsx/esm/api';

register();
await import('./sweep-worker.ts');
