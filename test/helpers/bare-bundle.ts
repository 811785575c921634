/**
 * A bare V8 context for dist/Code.js: no Apps Script service but what the bundle's loader reads
 * and decodes a part compiled on first use with (HtmlService.createHtmlOutputFromFile's content,
 * from dist; Utilities' base64Decode, newBlob and ungzip, as Apps Script answers them: signed
 * bytes, blobs), so a test sees what the bundle compiles and where its frames point without the
 * emulator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { gunzipSync } from 'node:zlib';

const DIST = join(__dirname, '../../dist');

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
  const HtmlService = {
    createHtmlOutputFromFile: (name: string) => {
      const content = readFileSync(join(DIST, `${name}.html`), 'utf8');
      return { getContent: () => content };
    },
  };
  return vm.createContext({ Utilities, HtmlService, ...globals });
}
