/**
 * scripts/secrets.ts over malformed stored values (a bare key where JSON belongs, a value cut short, a
 * seed of the wrong size): whatever it prints, to stdout or stderr, never holds a piece of a stored
 * secret. Crash output (an uncaught SyntaxError's message and stack) goes to the terminal and the CI log.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretsToolOnLocalSsm } from '#tests/support/secrets-tool';

const PATH = '/participation-api/staging/';
const local = secretsToolOnLocalSsm();
const secrets = local.secrets;
const b64 = (n: number) => randomBytes(n).toString('base64url');

/** Every 8-character piece of the secret's key material (what a "value starts with ..." message would show). */
const piecesOf = (secret: string) =>
  secret
    .replace(/[{}"]/g, ' ')
    .split(/[\s,:]+/)
    .filter((s) => s.length >= 8 && !['current', 'previous'].includes(s))
    .flatMap((f) => Array.from({ length: f.length - 7 }, (_, i) => f.slice(i, i + 8)));

describe('secrets output never holds a stored value', () => {
  it.each([
    ['token-keys not JSON (a bare key): check, which names the fix', 'token-keys', () => b64(48), ['check']],
    ['token-keys not JSON (a bare key): rotate-token-key --step prepare', 'token-keys', () => b64(48), ['rotate-token-key', '--step', 'prepare']],
    ['token-keys cut short (JSON with its key, unterminated)', 'token-keys', () => `{"current":{"kid":"k1","key":"${b64(48)}"},"next":null`, ['rotate-token-key', '--step', 'prepare']],
    ['token-keys JSON of the wrong shape (a list)', 'token-keys', () => JSON.stringify([b64(48)]), ['rotate-token-key', '--step', 'promote']],
    ['token-keys as JSON null', 'token-keys', () => 'null', ['rotate-token-key', '--step', 'retire']],
    ['token-keys not JSON: list', 'token-keys', () => b64(48), ['list']],
    ['vote seed 31 bytes in JSON', 'vote-signing-key', () => JSON.stringify({ current: b64(31), next: null }), ['rotate-vote-key', '--step', 'prepare']],
    ['vote seed 31 bytes in JSON, check', 'vote-signing-key', () => JSON.stringify({ current: b64(31), next: null }), ['check']],
    ['vote seeds not JSON', 'vote-signing-key', () => `{${b64(32)}`, ['rotate-vote-key', '--step', 'promote']],
    ['service tokens not JSON: service-token add', 'service-tokens', () => `[${b64(40)}`, ['service-token', 'add', '--name', 'ops', '--out', '/dev/null']],
  ])('%s', async (_what, parameter, value, args) => {
    local.ssm.set(`${PATH}token-keys`, JSON.stringify({ current: { kid: 'k1', key: b64(48) }, next: null, previous: null }));
    local.ssm.set(`${PATH}server-key`, b64(48));
    local.ssm.set(`${PATH}service-tokens`, JSON.stringify([{ name: 'cms', sha256: 'ab'.repeat(32) }]));
    local.ssm.set(`${PATH}vote-chain-key`, b64(32));
    local.ssm.set(`${PATH}vote-signing-key`, b64(32));
    local.ssm.set(`${PATH}vote-public-key`, JSON.stringify({ current: b64(32), next: null, retired: [] }));
    const secret = value();
    local.ssm.set(`${PATH}${parameter}`, secret);
    const { status, output } = await secrets(args);
    expect(status, output).not.toBe(0);
    for (const piece of piecesOf(secret)) expect(output, 'a piece of the stored value in the output').not.toContain(piece);
  });

  it('a broken token-keys is refused with a message naming the fix, and that fix is no command that crashes on it', async () => {
    local.ssm.set(`${PATH}token-keys`, b64(48));
    const check = await secrets(['check']);
    expect(check.output).toMatch(/refused \/participation-api\/staging\/token-keys: token-keys is not JSON/);
    const rotate = await secrets(['rotate-token-key', '--step', 'prepare']);
    expect(rotate.status).toBe(1);
    expect(rotate.output).toMatch(/token-keys is not JSON/);
    expect(rotate.output).not.toMatch(/SyntaxError|at .*\.ts:\d+/);
  });
});

describe('secrets list over an unreadable value', () => {
  it('lists every parameter, marks the unreadable one, names check for the fix and exits 1', async () => {
    local.ssm.set(`${PATH}token-keys`, b64(48));
    local.ssm.set(`${PATH}service-tokens`, JSON.stringify([{ name: 'cms', sha256: 'ab'.repeat(32) }]));
    local.ssm.set(`${PATH}vote-public-key`, JSON.stringify({ current: b64(32), next: null, retired: [] }));
    const { status, output } = await secrets(['list']);
    expect(status, output).toBe(1);
    expect(output).toMatch(/token-keys {2}version \d+.*\n {2}unreadable: .*npm run secrets -- check --stage staging names the fix/);
    // The parameters listed after the unreadable one are all there, with their parts.
    expect(output).toContain('  token "cms"');
    expect(output).toMatch(/vote-public-key {2}version \d+.*\n {2}current [0-9a-f]+, next -, retired -/);
    expect(output).not.toMatch(/SyntaxError: |at .*\.ts:\d+/);
  });
});

describe('what the secrets tool prints of an error', () => {
  it('an unexpected error by its kind only: a SyntaxError of JSON.parse quotes the start of the text it read', async () => {
    const { printable } = await import('../../../scripts/secrets-tool/errors.ts');
    const key = `k${b64(48)}`; // a letter first: "Unexpected token 'k', "kAbc..." is not valid JSON"
    let thrown: unknown;
    try {
      JSON.parse(key);
    } catch (error) {
      thrown = error;
    }
    expect(String((thrown as Error).message)).toContain(key.slice(0, 8));
    const printed = printable(thrown);
    expect(printed).toContain('SyntaxError');
    expect(printed).not.toContain(key.slice(0, 8));
    expect(printable(Object.assign(new Error(`connect to ${key}`), { code: 'ECONNREFUSED' }))).toMatch(/^an unexpected Error \(ECONNREFUSED\);/);
  });

  it('a weak token key is replaced by prepare, promote and retire, which write no weak key of their own', async () => {
    local.ssm.set(`${PATH}token-keys`, JSON.stringify({ current: { kid: 'k1', key: 'c2hvcnQ' }, next: null, previous: null }));
    expect((await secrets(['check'])).output).toMatch(/refused \/participation-api\/staging\/token-keys: .*shorter than 32 bytes\. Fix: replace the weak key: .*--step prepare, then --step promote, then --step retire/);
    for (const step of ['prepare', 'promote', 'retire']) expect((await secrets(['rotate-token-key', '--step', step])).status).toBe(0);
    const keys = JSON.parse(local.ssm.parameters.get(`${PATH}token-keys`)!.Value) as { current: { kid: string; key: string }; previous: null };
    expect(keys.current.kid).not.toBe('k1');
    expect(Buffer.from(keys.current.key, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(keys.previous).toBeNull();
  });
});
