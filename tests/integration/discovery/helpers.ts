/** Calls for the discovery tests: tags, ideas with tags and locations, the filtered lists. */
import { invoke, type InvokeResult } from '#tests/support/invoke';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';
import { handler as deleteIdea } from '../../../functions/ideas/delete.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as listMarkers } from '../../../functions/ideas/markers.ts';
import { handler as tagList } from '../../../functions/tags/list.ts';
import { handler as tagCreate } from '../../../functions/tags/create.ts';
import { handler as tagUpdate } from '../../../functions/tags/update.ts';
import { handler as tagDelete } from '../../../functions/tags/delete.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { Deleted, ListEnvelope } from '#tests/support/bodies';
import type { MarkerRecord } from '#schemas/discovery';
import type { TagRecord } from '#schemas/tag';

export const ideaText = (title: string, extra = '') => ({
  title: title.padEnd(10, '.').slice(0, 50),
  summary: `Summary of ${title}`.padEnd(20, '.').slice(0, 140),
  description: `${extra} This is the description of the idea, long enough for the default limits.`.padEnd(150, ' ').padEnd(160, 'z'),
});

/** Query objects written inline in tests (TypeScript widens absent keys to undefined). */
type Query = Record<string, string | undefined>;
const defined = (query: Query) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>;

export const api = {
  createIdea: (siteId: number, token: string, body: Record<string, unknown>) => invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId }, body, token }),
  updateIdea: (siteId: number, token: string, ideaId: number, body: Record<string, unknown>) =>
    invoke<IdeaRecord>(updateIdea, { method: 'PUT', params: { siteId, ideaId }, body, token }),
  deleteIdea: (siteId: number, token: string, ideaId: number) => invoke<Deleted>(deleteIdea, { method: 'DELETE', params: { siteId, ideaId }, token }),
  list: (siteId: number, query: Query = {}, token?: string) => invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId }, query: defined(query), ...(token ? { token } : {}) }),
  markers: (siteId: number, query: Query = {}) => invoke<ListEnvelope<MarkerRecord>>(listMarkers, { params: { siteId }, query: defined(query) }),
  tags: (siteId: number, query: Record<string, string> = {}) => invoke<ListEnvelope<TagRecord>>(tagList, { params: { siteId }, query }),
  createTag: (siteId: number, token: string | undefined, body: unknown) =>
    invoke<TagRecord>(tagCreate, { method: 'POST', params: { siteId }, body, ...(token ? { token } : {}) }),
  updateTag: (siteId: number, token: string | undefined, tagId: number, body: unknown) =>
    invoke<TagRecord>(tagUpdate, { method: 'PUT', params: { siteId, tagId }, body, ...(token ? { token } : {}) }),
  deleteTag: (siteId: number, token: string | undefined, tagId: number) =>
    invoke<Deleted>(tagDelete, { method: 'DELETE', params: { siteId, tagId }, ...(token ? { token } : {}) }),
};

/** Every record of a list, following `nextCursor` to the end (pages may be short). */
export async function allPages<T>(call: (query: Record<string, string>) => Promise<InvokeResult<ListEnvelope<T>>>, query: Record<string, string>): Promise<T[]> {
  const records: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const res = await call({ ...query, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
    records.push(...res.body.records);
    cursor = res.body.metadata.nextCursor;
    if (!cursor) return records;
  }
  throw new Error('too many pages');
}

export const ids = (records: Array<{ id: number }>) => records.map((r) => r.id);
