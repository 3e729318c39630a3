// The entry of the local host's backend thread (backend-thread.ts). Node 24 strips TypeScript's types
// itself (the project's code is erasable syntax only); a worker started where it does not (a host run
// under a loader that does it instead) registers tsx before loading the TypeScript module.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./backend-thread.ts');
