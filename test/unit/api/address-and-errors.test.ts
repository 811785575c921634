/**
 * Small rules of the service client, each through its public function: service addresses (https,
 * or http on this machine only; normalised), URLs (every value encoded, nothing added or
 * dropped), what a thrown failure means (quota, timeout or network; redacted), which codes are
 * retried and which may be hidden by a stale copy, the key's hint and the reasons a key is
 * refused, and the hung-service memory kept in the cache.
 */
import { badInput, ServiceError, toServiceError, TRANSIENT_CODES } from '../../../src/api/errors';
import { cacheHealth, HUNG_AFTER_MS, HUNG_MEMORY_MS } from '../../../src/api/health';
import { Memo } from '../../../src/api/memo';
import { keyHint, keyProblem, REDACTED, redact, redactAndCut } from '../../../src/api/redact';
import { buildUrl, normaliseBaseUrl, shownServiceAddress } from '../../../src/api/url';
import { FakeClock, LimitedStore, nodeCodec } from '../../helpers/fakes';

describe('service addresses', () => {
  test.each([
    ['https://data.example.com', 'https://data.example.com'],
    ['  HTTPS://Data.Example.COM/api/// ', 'https://data.example.com/api'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://127.0.0.1:3000/v1', 'http://127.0.0.1:3000/v1'],
    ['http://[::1]:99', 'http://[::1]:99'],
    ['https://[2001:db8::1]/x', 'https://[2001:db8::1]/x'],
    ['https://host:443/a/b', 'https://host:443/a/b'],
  ])('%j is %j', (input, out) => {
    expect(normaliseBaseUrl(input)).toBe(out);
  });

  test.each(['http://data.example.com', 'http://127.0.0.2', 'http://localhost.evil.example'])(
    '%j: http only for this machine',
    (input) => {
      expect(() => normaliseBaseUrl(input)).toThrow(
        `The service address must use https (http is allowed only for localhost): "${input}".`,
      );
    },
  );

  test.each([
    '',
    'data.example.com',
    'ftp://h',
    'https://',
    'https://user@h',
    'https://h?x=1',
    'https://h#f',
    'https://h:123456',
    'https://h h',
    'https://h/p q',
    'https://[::1',
  ])('%j is not an address', (input) => {
    expect(() => normaliseBaseUrl(input)).toThrow(
      `Not a valid service address: "${input.trim().replace(/\/+$/, '')}". Use https://host[/path].`,
    );
  });

  test('a long bad address is shown cut to 100 characters', () => {
    const long = `x${'y'.repeat(200)}`;
    expect(() => normaliseBaseUrl(long)).toThrow(`"${long.slice(0, 100)}"`);
    expect(() => normaliseBaseUrl(`http://${'h'.repeat(200)}`)).toThrow(`"http://${'h'.repeat(93)}".`);
  });
});

describe('a service address shows the host the key goes to: plain ASCII, nothing invisible', () => {
  const HIDDEN = [
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\ufeff', // zero-width
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f', // bidi
    '\u0000',
    '\u0007',
    '\u007f',
    '\u0085',
    '\u00ad',
    '\u00a0',
    '\u2028',
    '\u3164', // controls, soft hyphen, odd spaces, a filler
  ];
  const code = (ch: string) => `<U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;

  test('a host with a Cyrillic letter is refused, the letter shown as its code; punycode is the way to write it', () => {
    const cyrillic = 'https://\u0430pi.example.com';
    expect(() => normaliseBaseUrl(cyrillic)).toThrow(
      'The host of the service address is not plain ASCII: "https://<U+0430>pi.example.com". Write an internationalised domain name as punycode, xn--…, as the service\'s documentation gives it.',
    );
    expect(() => normaliseBaseUrl('https://bücher.example')).toThrow(
      'is not plain ASCII: "https://b<U+00FC>cher.example"',
    );
    expect(normaliseBaseUrl('https://XN--pi-8kc.example.com/v1/')).toBe('https://xn--pi-8kc.example.com/v1');
    expect(shownServiceAddress('https://xn--pi-8kc.example.com/v1')).toBe('xn--pi-8kc.example.com/v1');
  });

  test.each(HIDDEN.map((ch) => [code(ch), ch]))(
    '%s anywhere in the address is refused, named by its code',
    (shown, ch) => {
      for (const address of [
        `https://api.example.com${ch}`,
        `https://api${ch}.example.com`,
        `https://${ch}api.example.com/v1`,
        `https://api.example.com/v1${ch}/x`,
        `${ch}https://api.example.com`,
      ]) {
        expect(() => normaliseBaseUrl(address)).toThrow(
          `The service address holds an invisible or control character (${shown} at position `,
        );
        expect(() => normaliseBaseUrl(address)).toThrow(`: "${address.replace(ch, shown)}". Type the address again`);
      }
    },
  );

  test('a path must be plain ASCII too (percent-encoded otherwise); a host only letters, digits, "-", "_" and "."', () => {
    expect(() => normaliseBaseUrl('https://api.example.com/te\u0430m')).toThrow(
      'The path of the service address is not plain ASCII: "https://api.example.com/te<U+0430>m". Write its other characters percent-encoded (%D0%B0).',
    );
    expect(normaliseBaseUrl('https://api.example.com/te%D0%B0m')).toBe('https://api.example.com/te%D0%B0m');
    expect(() => normaliseBaseUrl('https://%D0%B0pi.example.com')).toThrow('Not a valid host in the service address');
    expect(() => normaliseBaseUrl(`https://h/${'x'.repeat(2000)}`)).toThrow(
      'The service address is 2,010 characters long; at most 2,000.',
    );
  });

  test('an address refused (written into the document behind the add-in) is shown with every unusual character as its code', () => {
    expect(shownServiceAddress('https://\u0430pi.example.com')).toBe('<U+0430>pi.example.com');
    expect(shownServiceAddress('https://api.example.com\u202e/moc.live')).toBe('api.example.com<U+202E>/moc.live');
    expect(shownServiceAddress('https://api.example.com/v1/')).toBe('api.example.com/v1');
    expect(shownServiceAddress('http://127.0.0.1:8080')).toBe('127.0.0.1:8080');
  });
});

describe('URLs', () => {
  test('the base loses its trailing slashes; undefined values are left out; names and values are encoded', () => {
    expect(buildUrl('https://h//', '/p', { a: undefined, 'b c': 'x/y?z#', n: 0 })).toBe(
      'https://h/p?b%20c=x%2Fy%3Fz%23&n=0',
    );
    expect(buildUrl('https://h', '/p', {})).toBe('https://h/p');
    expect(buildUrl('https://h', '/p', { a: undefined })).toBe('https://h/p');
  });
});

describe('what a thrown failure means', () => {
  test.each([
    ['Service invoked too many times for one day: urlfetch.', 'QUOTA'],
    ['Bandwidth quota exceeded', 'QUOTA'],
    ['QUOTA reached', 'QUOTA'],
    ['Request timed out', 'TIMEOUT'],
    ['timeout after 60 s', 'TIMEOUT'],
    ['Timed out', 'TIMEOUT'],
    ['Address unavailable: https://h/p', 'NETWORK'],
  ])('%j is %s', (text, code) => {
    expect(toServiceError(new Error(text), []).code).toBe(code);
  });

  test('messages: quota and timeout in our words; network keeps the cause, redacted and cut', () => {
    expect(toServiceError(new Error('quota'), []).message).toBe(
      'Daily URL fetch quota used up; cached values are shown where available. Try again tomorrow.',
    );
    expect(toServiceError(new Error('timeout'), []).message).toBe('The data service did not answer in time.');
    const key = 'secret-key-0123';
    const e = toServiceError(new Error(`DNS error for https://h/p?apiKey=${key} ${'z'.repeat(300)}`), [key]);
    expect(e.message.startsWith('Could not reach the data service: DNS error for https://h/p?apiKey=***')).toBe(true);
    expect(e.message).toHaveLength('Could not reach the data service: '.length + 200);
    expect(toServiceError('plain text thrown', []).message).toBe('Could not reach the data service: plain text thrown');
  });

  test('a ServiceError passes through unchanged', () => {
    const e = badInput('x');
    expect(toServiceError(e, [])).toBe(e);
    expect(e).toMatchObject({ code: 'BAD_INPUT', message: 'x', name: 'ServiceError' });
  });

  test('retried: rate limits, server errors, network, timeouts, not sent for lack of time, broken answers; nothing else', () => {
    expect([...TRANSIENT_CODES].sort()).toEqual([
      'MALFORMED',
      'NETWORK',
      'RATE_LIMITED',
      'SERVER',
      'TIMEOUT',
      'UNSENT',
    ]);
    for (const code of ['AUTH', 'NOT_FOUND', 'BAD_INPUT', 'NO_KEY', 'QUOTA', 'BAD_RESPONSE'] as const)
      expect(new ServiceError(code, '').transient).toBe(false);
  });

  test('a stale copy may stand in for every failure but those about the request itself', () => {
    for (const code of ['AUTH', 'NOT_FOUND', 'BAD_INPUT', 'NO_KEY'] as const)
      expect(new ServiceError(code, '').fallsBack).toBe(false);
    for (const code of ['RATE_LIMITED', 'SERVER', 'NETWORK', 'TIMEOUT', 'MALFORMED', 'QUOTA', 'BAD_RESPONSE'] as const)
      expect(new ServiceError(code, '').fallsBack).toBe(true);
  });

  test('an error redacts its message and URL at construction; Retry-After without an answer time has no due time', () => {
    const e = new ServiceError('SERVER', 'said secret-key-0123', {
      url: 'https://h/?apiKey=secret-key-0123',
      secrets: ['secret-key-0123'],
      status: 503,
      retryAfterMs: 5,
    });
    expect(e.message).toBe(`said ${REDACTED}`);
    expect(e.url).toBe(`https://h/?apiKey=${REDACTED}`);
    expect(e.status).toBe(503);
    expect(e.retryAt).toBeUndefined();
    expect(new ServiceError('SERVER', 'x').url).toBeUndefined();
  });
});

describe('the key as the sidebar shows it, and why one is refused', () => {
  test('only the last four characters, and nothing for a key that short', () => {
    expect(keyHint('demo-key-0123456789')).toBe('…6789');
    expect(keyHint('abcde')).toBe('…bcde');
    expect(keyHint('abcd')).toBe('…');
  });

  test('length first (8 to 512, edges included), then the characters', () => {
    expect(keyProblem('a'.repeat(8))).toBeUndefined();
    expect(keyProblem('a'.repeat(512))).toBeUndefined();
    expect(keyProblem('a'.repeat(7))).toBe('An API key is 8 to 512 characters long.');
    expect(keyProblem('a'.repeat(513))).toBe('An API key is 8 to 512 characters long.');
    expect(keyProblem('a b c d e')).toBe(
      'An API key may hold only letters, digits and the characters - _ . ~ (no spaces, quotes, +, %, & or other symbols).',
    );
    expect(keyProblem(' abcdefgh')).toMatch(/^An API key may hold only/);
    expect(keyProblem('abcdefgh ')).toMatch(/^An API key may hold only/);
  });

  test('a secret shorter than 4 characters, or empty, is not redacted by value; an apiKey= value always is', () => {
    expect(redact('abc in text', ['abc'])).toBe('abc in text');
    expect(redact('x?apiKey=abc&y=1', ['', 'abc'])).toBe(`x?apiKey=${REDACTED}&y=1`);
    expect(redact('x%3FapiKey%3Dabc', [])).toBe(`x%3FapiKey%3D${REDACTED}`);
    expect(redact('abcd-secret', ['abcd'])).toBe(`${REDACTED}-secret`);
    expect(redactAndCut('0123456789 long-secret-key tail', ['long-secret-key'], 14)).toBe(`0123456789 ${REDACTED}`);
  });
});

describe('hung-service memory', () => {
  const setup = () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const memo = new Memo({
      store,
      codec: nodeCodec,
      apiKey: 'k-0123456789',
      baseUrl: 'https://h',
      ttlMs: 60_000,
      invalidatedBefore: 0,
      now: () => clock.now(),
    });
    return { clock, health: cacheHealth(memo, () => clock.now()), memo, store };
  };

  test('nothing is known before any fetch, and an answered fetch leaves nothing to remember', () => {
    const { clock, health } = setup();
    expect(health.hung()).toBeUndefined();
    expect(health.around(() => 'answer')).toBe('answer');
    clock.t += HUNG_AFTER_MS + 1;
    expect(health.hung()).toBeUndefined();
  });

  test('a fetch with no answer: not hung before HUNG_AFTER_MS, hung from then until HUNG_MEMORY_MS after it started', () => {
    const { clock, health } = setup();
    const started = clock.t;
    expect(() =>
      health.around(() => {
        throw new Error('killed');
      }),
    ).toThrow('killed');
    clock.t = started + HUNG_AFTER_MS - 1;
    expect(health.hung()).toBeUndefined();
    clock.t = started + HUNG_AFTER_MS;
    expect(health.hung()).toBe(
      'The data service has not answered for 20 s, so nothing is asked of it for 100 s more; last good values are shown where there are some.',
    );
    clock.t = started + HUNG_MEMORY_MS - 1;
    expect(health.hung()).toBe(
      'The data service has not answered for 120 s, so nothing is asked of it for 1 s more; last good values are shown where there are some.',
    );
    clock.t = started + HUNG_MEMORY_MS;
    expect(health.hung()).toBeUndefined();
  });

  test("an execution's own answer in the last HUNG_AFTER_MS answers for it without a read; past that it reads", () => {
    const { clock, health, memo, store } = setup();
    const answered = clock.t;
    health.around(() => 'answer');
    // Another execution's fetch, started just after that answer and killed.
    clock.t += 1;
    const other = cacheHealth(memo, () => clock.now());
    expect(() =>
      other.around(() => {
        throw new Error('killed');
      }),
    ).toThrow();
    const reads = store.getAllCalls;
    clock.t = answered + HUNG_AFTER_MS - 1;
    expect(health.hung()).toBeUndefined();
    expect(store.getAllCalls).toBe(reads);
    clock.t = answered + HUNG_AFTER_MS;
    expect(health.hung()).toBeUndefined();
    expect(store.getAllCalls).toBe(reads + 1);
    clock.t = answered + 1 + HUNG_AFTER_MS;
    expect(health.hung()).toMatch(/has not answered for 20 s/);
  });

  test('an answer after the hung fetch clears it', () => {
    const { clock, health } = setup();
    expect(() =>
      health.around(() => {
        throw new Error('killed');
      }),
    ).toThrow();
    clock.t += HUNG_AFTER_MS;
    health.around(() => undefined);
    expect(health.hung()).toBeUndefined();
  });
});
