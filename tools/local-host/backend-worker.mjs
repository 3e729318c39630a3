// The entry of the local host's backend thread (backend-thread.ts). Node 24 strips TypeScript's types
// itself (the project's code is erasable syntax only); where that is turned off
// (`--no-experimental-strip-types`), the worker registers tsx before loading the TypeScript module.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./backend-thread.ts');
