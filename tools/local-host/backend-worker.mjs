// The entry of the local host's backend thread (backend-thread.ts). A worker starts without the main
// thread's TypeScript loader, so it registers tsx itself before loading the TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./backend-thread.ts');
