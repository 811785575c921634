/**
 * Utilities (sleep on the simulated clock, digests, base64, gzip, blobs, dates, UUIDs), Session,
 * Logger and console. Byte arrays are Java-style signed bytes, as Apps Script returns them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SCOPE } from './auth';
import type { Execution } from './execution';
import { wallClock } from './typed-text';

type Bytes = number[];
// Int8Array reads the same bytes as signed; plain loops (Array.from over a typed array is several times slower).
export function arrayOf(view: Int8Array): Bytes {
  const out = new Array<number>(view.length);
  for (let i = 0; i < view.length; i++) out[i] = view[i];
  return out;
}
const toSigned = (buf: Buffer): Bytes => arrayOf(new Int8Array(buf.buffer, buf.byteOffset, buf.length));
const toBuffer = (data: Bytes | string): Buffer =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(Int8Array.from(data).buffer);

export const MAX_SLEEP_MS = 300000;

export class Blob
  implements
    Pick<
      GoogleAppsScript.Base.Blob,
      'getBytes' | 'getDataAsString' | 'getContentType' | 'setContentType' | 'getName' | 'setName' | 'copyBlob'
    >
{
  private name: string | null = null;
  constructor(
    readonly data: Buffer,
    private type: string | null,
    private readonly exec: Execution,
  ) {}
  getBytes(): Bytes {
    return toSigned(this.data);
  }
  getDataAsString(charset?: string): string {
    return this.data.toString(charset && /^utf-?16/i.test(charset) ? 'utf16le' : 'utf8');
  }
  getContentType(): string | null {
    return this.type;
  }
  setContentType(type: string | null): GoogleAppsScript.Base.Blob {
    this.type = type;
    return this as unknown as GoogleAppsScript.Base.Blob;
  }
  getName(): string | null {
    return this.name;
  }
  setName(name: string): GoogleAppsScript.Base.Blob {
    this.name = name;
    return this as unknown as GoogleAppsScript.Base.Blob;
  }
  copyBlob(): GoogleAppsScript.Base.Blob {
    return new Blob(Buffer.from(this.data), this.type, this.exec) as unknown as GoogleAppsScript.Base.Blob;
  }
}

const DIGESTS: Record<string, string> = {
  MD2: 'md2',
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
};

type UtilitiesApi = Pick<
  GoogleAppsScript.Utilities.Utilities,
  | 'sleep'
  | 'computeDigest'
  | 'base64Encode'
  | 'base64Decode'
  | 'base64EncodeWebSafe'
  | 'base64DecodeWebSafe'
  | 'gzip'
  | 'ungzip'
  | 'newBlob'
  | 'formatDate'
  | 'getUuid'
  | 'DigestAlgorithm'
  | 'Charset'
>;

export class EmulatedUtilities implements UtilitiesApi {
  readonly DigestAlgorithm = Object.fromEntries(
    Object.keys(DIGESTS).map((k) => [k, k]),
  ) as unknown as typeof GoogleAppsScript.Utilities.DigestAlgorithm;
  readonly Charset = { US_ASCII: 'US_ASCII', UTF_8: 'UTF_8' } as unknown as typeof GoogleAppsScript.Utilities.Charset;
  constructor(private readonly exec: Execution) {}

  sleep(ms: number): void {
    this.exec.charge('Utilities.sleep', 0);
    if (ms > MAX_SLEEP_MS) throw this.exec.makeError(`Exception: Invalid argument: milliseconds (max ${MAX_SLEEP_MS})`);
    this.exec.clock.advance(Math.max(0, ms));
    this.exec.check();
  }
  computeDigest(
    algorithm: GoogleAppsScript.Utilities.DigestAlgorithm,
    value: string | Bytes,
    _charset?: GoogleAppsScript.Utilities.Charset,
  ): Bytes {
    this.exec.charge('Utilities.computeDigest');
    const alg = DIGESTS[String(algorithm)];
    if (!alg) throw this.exec.makeError(`Exception: Invalid argument: algorithm`);
    return toSigned(createHash(alg).update(toBuffer(value)).digest());
  }
  base64Encode(data: Bytes | string): string {
    this.exec.charge('Utilities.base64Encode');
    return toBuffer(data).toString('base64');
  }
  base64EncodeWebSafe(data: Bytes | string): string {
    this.exec.charge('Utilities.base64EncodeWebSafe');
    return toBuffer(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  }
  base64Decode(encoded: string): Bytes {
    this.exec.charge('Utilities.base64Decode');
    return toSigned(Buffer.from(encoded, 'base64'));
  }
  base64DecodeWebSafe(encoded: string): Bytes {
    this.exec.charge('Utilities.base64DecodeWebSafe');
    return toSigned(Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  }
  gzip(blob: GoogleAppsScript.Base.BlobSource): GoogleAppsScript.Base.Blob {
    this.exec.charge('Utilities.gzip');
    return new Blob(
      gzipSync(this.bytesOf(blob)),
      'application/x-gzip',
      this.exec,
    ) as unknown as GoogleAppsScript.Base.Blob;
  }
  ungzip(blob: GoogleAppsScript.Base.BlobSource): GoogleAppsScript.Base.Blob {
    this.exec.charge('Utilities.ungzip');
    try {
      return new Blob(gunzipSync(this.bytesOf(blob)), null, this.exec) as unknown as GoogleAppsScript.Base.Blob;
    } catch {
      throw this.exec.makeError('Exception: Could not decompress gzip.');
    }
  }
  newBlob(data: Bytes | string, contentType?: string, name?: string): GoogleAppsScript.Base.Blob {
    this.exec.charge('Utilities.newBlob');
    const blob = new Blob(toBuffer(data), contentType ?? null, this.exec);
    if (name) blob.setName(name);
    return blob as unknown as GoogleAppsScript.Base.Blob;
  }
  formatDate(date: GoogleAppsScript.Base.Date, timeZone: string, format: string): string {
    this.exec.charge('Utilities.formatDate');
    const parts = wallClock((date as unknown as Date).getTime(), timeZone);
    return format.replace(
      /yyyy|MM|dd|HH|mm|ss|'([^']*)'/g,
      (token, literal) =>
        literal ??
        (
          {
            yyyy: parts.year,
            MM: parts.month,
            dd: parts.day,
            HH: parts.hour,
            mm: parts.minute,
            ss: parts.second,
          } as Record<string, string>
        )[token],
    );
  }
  getUuid(): string {
    this.exec.charge('Utilities.getUuid');
    return randomUUID();
  }
  private bytesOf(blob: GoogleAppsScript.Base.BlobSource): Buffer {
    const b = blob as unknown as Blob;
    return b instanceof Blob ? b.data : toBuffer((blob as GoogleAppsScript.Base.Blob).getBytes());
  }
}

export class EmulatedSession
  implements
    Pick<
      GoogleAppsScript.Base.Session,
      'getScriptTimeZone' | 'getEffectiveUser' | 'getActiveUser' | 'getTemporaryActiveUserKey'
    >
{
  constructor(
    private readonly exec: Execution,
    private readonly timeZone: string,
  ) {}
  getScriptTimeZone(): string {
    this.exec.charge('Session.getScriptTimeZone');
    return this.timeZone;
  }
  /** '' when the executing user declined userinfo.email (auth.ts): Google's blank string for an email it may not give. */
  private user(email: string): GoogleAppsScript.Base.User {
    const { grantedScopes: granted, manifestScopes: manifest } = this.exec;
    const declined = !!granted && !granted.has(SCOPE.email) && (!manifest || manifest.has(SCOPE.email));
    const shown = declined ? '' : email;
    return { getEmail: () => shown } as GoogleAppsScript.Base.User;
  }
  getEffectiveUser(): GoogleAppsScript.Base.User {
    this.exec.charge('Session.getEffectiveUser');
    return this.user(this.exec.readOnly ? this.exec.owner : this.exec.user);
  }
  getActiveUser(): GoogleAppsScript.Base.User {
    this.exec.charge('Session.getActiveUser');
    return this.user(this.exec.readOnly ? '' : this.exec.user);
  }
  getTemporaryActiveUserKey(): string {
    this.exec.charge('Session.getTemporaryActiveUserKey');
    return createHash('sha256').update(this.exec.user).digest('hex').slice(0, 24);
  }
}

function line(args: unknown[]): string {
  return args
    .map((a) =>
      typeof a === 'string'
        ? a
        : (() => {
            try {
              return JSON.stringify(a);
            } catch {
              return String(a);
            }
          })(),
    )
    .join(' ');
}

/** Logger and console write to the execution's ledger (tests scan it for leaked keys). */
export function loggers(exec: Execution): {
  Logger: Pick<GoogleAppsScript.Base.Logger, 'log' | 'getLog' | 'clear'>;
  console: Pick<Console, 'log' | 'info' | 'warn' | 'error' | 'debug'>;
} {
  const write =
    (level: string) =>
    (...args: unknown[]) => {
      exec.ledger.logs.push(`${level} ${line(args)}`);
    };
  const Logger = {
    log: (...args: unknown[]) => {
      write('LOG')(...args);
      return Logger as unknown as GoogleAppsScript.Base.Logger;
    },
    getLog: () => exec.ledger.logs.join('\n'),
    clear: () => {
      exec.ledger.logs.length = 0;
    },
  };
  return {
    Logger,
    console: {
      log: write('INFO'),
      info: write('INFO'),
      warn: write('WARNING'),
      error: write('ERROR'),
      debug: write('DEBUG'),
    },
  };
}
