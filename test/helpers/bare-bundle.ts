/**
 * A bare V8 context for dist/Code.js: no Apps Script service but the three Utilities members the
 * bundle's loader decodes a part compiled on first use with (base64Decode, newBlob, ungzip, as
 * Apps Script answers them: signed bytes, blobs), so a test sees what the bundle compiles and
 * where its frames point without the emulator.
 */
import vm from 'node:vm';
import { gunzipSync } from 'node:zlib';

interface BytesBlob {
  bytes: number[];
}

export function bareContext(globals: Record<string, unknown> = {}): vm.Context {
  const Utilities = {
    base64Decode: (text: string): number[] => Array.from(new Int8Array(Buffer.from(text, 'base64'))),
    newBlob: (bytes: number[]): BytesBlob => ({ bytes }),
    ungzip: (blob: BytesBlob) => {
      const text = gunzipSync(Buffer.from(Int8Array.from(blob.bytes).buffer)).toString('utf8');
      return { getDataAsString: () => text };
    },
  };
  return vm.createContext({ Utilities, ...globals });
}
