/**
 * A frontend's typed client, written against the types openapi-typescript generates from the API's
 * own OpenAPI document (schema.d.ts beside this file), with openapi-fetch. `npm run typecheck`
 * compiles it under the strictest settings (tsconfig.json here): every request and answer below is
 * typed from the document, without a cast. docs/frontends.md walks through the same steps.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

type Site = components['schemas']['Site'];
type Idea = components['schemas']['Idea'];
type VoteInput = components['schemas']['VoteInput'];

/** A client for one API; the token (from the login's `#jwt=`) goes in `X-Authorization`. */
export function apiClient(baseUrl: string, token?: string) {
  return createClient<paths>({ baseUrl, headers: token ? { 'X-Authorization': `Bearer ${token}` } : {} });
}

/** After the login came back to the frontend with `#jwt=...`: the token, and the URL without it. */
export function tokenFromFragment(href: string): { token: string | undefined; cleanUrl: string } {
  const url = new URL(href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const token = fragment.get('jwt') ?? undefined;
  fragment.delete('jwt');
  url.hash = fragment.toString();
  return { token, cleanUrl: url.toString() };
}

/** The site's voting setup: typed config, no cast (`config` is SiteConfigRead in the document). */
export async function votingSetup(client: ReturnType<typeof apiClient>, siteId: number) {
  const { data, error } = await client.GET('/api/site/{siteId}', { params: { path: { siteId } } });
  if (error) throw new Error(`${error.status} ${error.error}: ${error.message}`);
  const site: Site = data;
  const votes = site.config.votes;
  return {
    voteType: votes?.voteType ?? 'likes',
    isActive: votes?.isActive ?? null,
    choices: (votes?.voteValues ?? []).map((v) => v.label ?? v.value),
  };
}

/** The running ideas, newest first, one page at a time (`nextCursor` until null). */
export async function* runningIdeas(client: ReturnType<typeof apiClient>, siteId: number): AsyncGenerator<Idea> {
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET('/api/site/{siteId}/idea', {
      params: { path: { siteId }, query: { selectRunning: '1', pageSize: 50, ...(cursor ? { cursor } : {}) } },
    });
    if (error) throw new Error(error.message);
    yield* data.records;
    cursor = data.metadata.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** A round of likes: `opinion` may be left out (it is `yes` then). */
export async function like(client: ReturnType<typeof apiClient>, siteId: number, ideaIds: number[]) {
  const round: VoteInput[] = ideaIds.map((ideaId) => ({ ideaId }));
  const { data, error, response } = await client.POST('/api/site/{siteId}/vote', { params: { path: { siteId } }, body: round });
  if (error) return { ok: false as const, status: response.status, message: error.message };
  return { ok: true as const, votes: data.map((vote) => ({ ideaId: vote.ideaId, opinion: vote.opinion })) };
}

/** Allowing one more frontend origin: a one-line JSON Merge Patch that keeps the rest of the config. */
export async function allowOrigin(client: ReturnType<typeof apiClient>, siteId: number, host: string) {
  const { data: current } = await client.GET('/api/site/{siteId}', { params: { path: { siteId } } });
  const allowed = [...(current?.config.allowedDomains ?? []), host];
  const { data, error } = await client.PATCH('/api/site/{siteId}', {
    params: { path: { siteId } },
    body: { config: { allowedDomains: allowed } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  if (error) throw new Error(error.message);
  return data.config.allowedDomains ?? [];
}

/** A new idea; the answer's `Location` is the idea's own path. */
export async function submitIdea(client: ReturnType<typeof apiClient>, siteId: number, idea: components['schemas']['CreateIdeaBody']) {
  const { data, error, response } = await client.POST('/api/site/{siteId}/idea', { params: { path: { siteId } }, body: idea });
  if (error) return { ok: false as const, details: (error.details ?? []).map((d) => `${d.path}: ${d.message}`) };
  return { ok: true as const, id: data.id, location: response.headers.get('Location') };
}
