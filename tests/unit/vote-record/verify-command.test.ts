/** The command line of `npm run verify-votes`: a site to audit, or a receipt to check over HTTP; anything else is the usage (exit 2). */
import { describe, expect, it } from 'vitest';
import { parseVerifyArguments } from '../../../scripts/verify-votes.ts';
import { readReceiptArgument } from '../../../scripts/verify-receipt.ts';

const receipt = 'ab'.repeat(32);
const url = 'http://127.0.0.1:3000/api/site/4/vote-record/checkpoint';

describe('npm run verify-votes arguments', () => {
  it('a site, or a receipt with the checkpoint URL (and a key URL)', () => {
    expect(parseVerifyArguments(['--site', '12'])).toEqual({ siteId: 12 });
    expect(parseVerifyArguments(['--receipt', receipt, '--checkpoint-url', url])).toEqual({ receipt, checkpointUrl: url });
    expect(parseVerifyArguments(['--receipt', JSON.stringify([{ id: 1, receipt }]), '--checkpoint-url', url, '--key-url', 'https://city.example.org/key.json'])).toMatchObject({ keyUrl: 'https://city.example.org/key.json' });
    expect(parseVerifyArguments(['--receipt', receipt, '--checkpoint-url', url, '--voted-at', '2030-01-01T12:00:00Z'])).toEqual({ receipt, checkpointUrl: url, votedAt: '2030-01-01T12:00:00Z' });
  });

  it('a vote answer gives a time the vote was cast at or after: its newest `createdAt` among the records of the receipt', () => {
    const answer = [
      { id: 1, receipt, createdAt: '2030-01-01T11:00:00.000Z' },
      { id: 2, receipt, createdAt: '2030-01-01T11:30:00.000Z' },
    ];
    expect(readReceiptArgument(JSON.stringify(answer))).toEqual({ receipt, castAt: '2030-01-01T11:30:00.000Z' });
    expect(readReceiptArgument(receipt)).toEqual({ receipt });
  });

  it.each([
    [[]],
    [['--site', '0']],
    [['--site', '1', '--receipt', receipt, '--checkpoint-url', url]],
    [['--receipt', receipt]],
    [['--checkpoint-url', url]],
    [['--receipt', 'xyz', '--checkpoint-url', url]],
    [['--receipt', '{"receipt":"nope"}', '--checkpoint-url', url]],
    [['--receipt', receipt, '--checkpoint-url', 'http://127.0.0.1:3000/api/site/4/results']],
    [['--receipt', receipt, '--checkpoint-url', 'ftp://127.0.0.1/api/site/4/vote-record/checkpoint']],
    [['--receipt', receipt, '--checkpoint-url', url, 'extra']],
    [['--unknown']],
    [['--receipt', receipt, '--checkpoint-url', url, '--voted-at', 'yesterday']],
    [['--site', '1', '--voted-at', '2030-01-01T12:00:00Z']],
  ])('refuses %j with the usage', (argv) => {
    expect(() => parseVerifyArguments(argv)).toThrow(/usage: npm run verify-votes/);
  });
});
