/**
 * Section `results` of `npm run bench`, the read: `GET /results` of a budgeting site whose counts are
 * public, answered from its stored snapshot, anonymous (what a city's visitors and a CDN send), timed
 * against DynamoDB Local next to its bare requests (timing.ts). The snapshot is the real body of the
 * 200 × 5,000 city vote (results-instance.ts), stored as the results job stores it: inline in the head,
 * and again cut into small chunks, so the chunked path (a body past 300 KB gzipped, one BatchGet more)
 * is timed too. The cases: a full read, and a revalidation answered 304.
 */
import { randomBytes } from 'node:crypto';
import { computeResults } from '#lib/results/results';
import { packSnapshot } from '#lib/results/snapshot';
import { getResultsHead, writeResultsSnapshot } from '#lib/store/results/snapshots';
import { createSite } from '#tests/support/fixtures';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as getResults } from '../../functions/results/get.ts';
import { call } from '../lambda-call.ts';
import { cityVote } from './results-instance.ts';
import { timeCase, type TimedCase, type TimedResult } from './timing.ts';

interface ReadRow extends TimedResult {
  /** Gzipped bytes of the stored body, and the chunks it is stored in (0: inline in the head). */
  bodyBytes: number;
  chunks: number;
}

const IDEAS = 200;
const BALLOTS = 5_000;
/** Chunks of the chunked case: the real body cut in this many pieces, as a body past 300 KB is. */
const CHUNKS = 4;

async function snapshotSite(chunked: boolean): Promise<{ siteId: number; etag: string; bodyBytes: number; chunks: number }> {
  const vote = cityVote(IDEAS, BALLOTS);
  const config: SiteConfigInput = { votes: { isActive: true, isViewable: true, voteType: 'budgeting', maxBudget: vote.budget, maxIdeas: 6, requiredUserRole: 'member' } };
  const { id: siteId } = await createSite(config, `Bench results ${chunked ? 'chunked' : 'inline'}`);
  const computedAt = new Date().toISOString();
  const body = {
    ...computeResults({
      config: { voteType: 'budgeting', maxBudget: vote.budget, themes: [] },
      ideas: vote.ideas.map((idea) => ({ id: idea.id, title: `Idea ${idea.id} of the city vote`, budget: idea.cost, theme: null })),
      ballots: vote.ballots.map((ideaIds) => ({ votes: ideaIds.map((ideaId) => ({ ideaId, opinion: 'yes' })) })),
      computedAt,
    }),
    checkpoint: null,
  };
  const whole = packSnapshot(body);
  const packed = chunked ? packSnapshot(body, Math.ceil(whole.chunks[0]!.length / CHUNKS)) : whole;
  const written = await writeResultsSnapshot(
    {
      head: { siteId, etag: packed.etag, computedAt, coveredUntil: computedAt, ballots: BALLOTS, generation: randomBytes(6).toString('base64url') },
      chunks: packed.chunks,
      replaces: null,
    },
    new Date(),
  );
  if (!written || !(await getResultsHead(siteId))) throw new Error('bench: the results snapshot was not stored');
  return { siteId, etag: packed.etag, bodyBytes: packed.chunks.reduce((n, c) => n + c.length, 0), chunks: packed.chunks.length === 1 ? 0 : packed.chunks.length };
}

const readCase = (name: string, siteId: number, headers: Record<string, string>, status: number): TimedCase => ({
  name,
  endpoint: 'resultsGet',
  status,
  run: () => call(getResults, { method: 'GET', path: '/api/site/{siteId}/results', params: { siteId }, headers }),
});

export async function measureResultsRead(runs: number, warmup: number, log: (line: string) => void): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for (const chunked of [false, true]) {
    const site = await snapshotSite(chunked);
    const stored = chunked ? `${site.chunks} chunks` : 'inline';
    for (const c of [
      readCase(`anonymous read, body ${stored}`, site.siteId, {}, 200),
      readCase(`anonymous revalidation (If-None-Match), body ${stored}`, site.siteId, { 'if-none-match': site.etag }, 304),
    ]) {
      const timed = await timeCase(c, runs, warmup);
      log(`  ${c.name}: ${timed.requests.max} requests, median ${timed.handler.median} ms (floor ${timed.floor.median} ms)`);
      rows.push({ ...timed, bodyBytes: site.bodyBytes, chunks: site.chunks });
    }
  }
  return rows;
}
