// A handler that holds node:zlib's crc32 from import as the AWS SDK's checksums do (`zlib.crc32` read at
// module load) and calls it only when invoked: in a bundle, node:zlib loads at that first call.
import * as zlib from 'node:zlib';

const crc32 = typeof zlib.crc32 === 'function' ? zlib.crc32 : undefined;

/** Whether Node has loaded node:zlib (its internal, untyped list of loaded built-ins). */
const zlibLoaded = () => (process as unknown as { moduleLoadList: string[] }).moduleLoadList.includes('NativeModule zlib');

export async function handler(): Promise<{ loadedAtImport: boolean; checksum: number | undefined; loadedAfterCall: boolean }> {
  const loadedAtImport = zlibLoaded();
  const checksum = crc32?.('hello');
  return { loadedAtImport, checksum, loadedAfterCall: zlibLoaded() };
}
