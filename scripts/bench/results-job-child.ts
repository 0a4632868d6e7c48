/**
 * One step of the results job at city scale, alone in a fresh Node process (results-job.ts starts it
 * with the bench's environment and a DynamoDB Local of its own): `seed` writes the city site, `read`
 * reads its ballots as compute.ts does, `job` runs the whole computation. Prints one JSON line: time, requests, memory. Peak RSS is the process's own
 * (getrusage), so nothing the bench did before counts.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const peakRss = () => mib(process.resourceUsage().maxRSS * 1024);

const [mode, ...args] = process.argv.slice(2);
/** No deadline in effect: DynamoDB Local serves a 100,000-ballot read in minutes (the service in seconds), and a job that stops at its deadline would measure only part of the work. */
const JOB_DEADLINE_MS = 3 * 3600_000;

/** Writes the site: ideas with their budgets, then the ballots (each with its log entry), a few batches at a time. */
async function seed(ideas: number, ballots: number): Promise<void> {
  const started = performance.now();
  const { ensureTable } = await import('#lib/store/db/table');
  const { createSite } = await import('#tests/support/fixtures');
  const { putIdea } = await import('#tests/support/ideas-fixture');
  const { putBallots } = await import('#tests/support/ballot-fixtures');
  const { cityVote } = await import('./results-instance.ts');
  await ensureTable();
  const vote = cityVote(ideas, ballots);
  const { id: siteId } = await createSite({ votes: { isActive: true, isViewable: true, voteType: 'budgeting', maxBudget: vote.budget, maxIdeas: 6, requiredUserRole: 'member' } }, 'Bench results job');
  const ideaIds: number[] = [];
  for (let i = 0; i < vote.ideas.length; i += 25) {
    ideaIds.push(...(await Promise.all(vote.ideas.slice(i, i + 25).map((idea) => putIdea(siteId, { budget: idea.cost }).then((x) => x.id)))));
  }
  const BATCH = 1_000;
  const PARALLEL = 4;
  for (let i = 0; i < vote.ballots.length; i += BATCH * PARALLEL) {
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, k) => vote.ballots.slice(i + k * BATCH, i + (k + 1) * BATCH))
        .filter((batch) => batch.length > 0)
        .map((batch) => putBallots(siteId, batch.map((picks) => ({ ideaIds: picks.map((p) => ideaIds[p - 1]!) })))),
    );
    if ((i + BATCH * PARALLEL) % 20_000 === 0) console.error(`  ${(i + BATCH * PARALLEL).toLocaleString('en-US')} ballots written`);
  }
  console.log(JSON.stringify({ siteId, seedSeconds: Math.round((performance.now() - started) / 100) / 10 }));
}

async function measure(siteId: number): Promise<void> {
  const { findSite } = await import('#lib/sites/site');
  const { readSiteBallots } = await import('#lib/store/ballots/site-ranges');
  const { computeSiteResults } = await import('#lib/results/compute');
  const { countRequests } = await import('#tests/support/request-counter');
  const site = await findSite(siteId);
  if (!site) throw new Error(`results-job-child: no site ${siteId}`);
  gc();
  const baselineRssMiB = peakRss();
  const baseHeap = process.memoryUsage().heapUsed;
  const started = performance.now();
  if (mode === 'read') {
    const { result: ballots, commands } = await countRequests(() => readSiteBallots(siteId, 'votes', true));
    const ms = Math.round(performance.now() - started);
    gc();
    const heldMiB = mib(process.memoryUsage().heapUsed - baseHeap);
    const ballotBytes = ballots.reduce((n, b) => n + JSON.stringify(b).length, 0);
    console.log(JSON.stringify({ mode, ballots: ballots.length, ms, commands, heldMiB, peakRssMiB: peakRss(), baselineRssMiB, ballotBytes }));
  } else {
    const { result: outcome, commands } = await countRequests(() => computeSiteResults(site, { deadline: new Date(Date.now() + JOB_DEADLINE_MS) }));
    if (outcome !== 'done') throw new Error(`results-job-child: the computation ended ${outcome}`);
    const ms = Math.round(performance.now() - started);
    const peakRssMiB = peakRss();
    const { getResultsHead } = await import('#lib/store/results/snapshots');
    console.log(JSON.stringify({ mode, ballots: (await getResultsHead(siteId))?.ballots ?? 0, ms, commands, peakRssMiB, baselineRssMiB, ballotBytes: 0 }));
  }
}

if (mode === 'seed') await seed(Number(args[0]), Number(args[1]));
else await measure(Number(args[0]));
