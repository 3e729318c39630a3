// The entry of the local host's backend process (backend-process.ts). Node 24 strips TypeScript's types
// itself (the project's code is erasable syntax only); where that is turned off
// (`--no-experimental-strip-types`), the process registers tsx before loading the TypeScript module.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./backend-process.ts');
