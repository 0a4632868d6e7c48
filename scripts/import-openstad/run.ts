/**
 * The OpenStad import, site by site, in the order records refer to each other: the site, its users,
 * tags, ideas (with their tags), arguments (with their votes), articles, newsletter signups, votes.
 *
 * Idempotent and resumable: every record is written on its own with a "not there yet" condition and
 * keeps its OpenStad id, so a rerun (after a crash, or to check) finds what is there and writes only
 * what is missing; a record already there is left alone (reported as unchanged when it is the one a
 * previous run wrote, as differing when it is not). Ids are reserved once per source
 * (lib/store/imports/reservations.ts); a record whose id this deployment had already handed out is not
 * copied. `dryRun` reads both sides and writes nothing (not even the reservation).
 *
 * What was deleted or anonymized here since an earlier run is not brought back: a site deleted here
 * (its tombstone) is refused whole; a user deleted here is not recreated; a user anonymized here gets
 * no ballot and no newsletter signup (their contributions come in, as anonymization keeps them); a
 * ballot is written only while its user is still there and not anonymized (docs/openstad.md).
 */
import type { Caller } from '#lib/auth/caller';
import { createSite } from '#lib/site-admin/service';
import { getItems } from '#lib/store/db/read';
import { type Key } from '#lib/store/db/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { contentKeys } from '#lib/store/content/keys';
import { importKeys } from '#lib/store/imports/keys';
import { signupKeys } from '#lib/store/newsletter/keys';
import { siteKeys } from '#lib/store/sites/keys';
import { tagKeys } from '#lib/store/tags/keys';
import { userKeys } from '#lib/store/users/keys';
import { deletedUsersAmong, putNewUser, type UserItem } from '#lib/store/users/users';
import { putNewTag } from '#lib/store/tags/tags';
import { putNewIdea } from '#lib/store/ideas/ideas';
import { putNewContentItem, type ContentItem } from '#lib/store/content/content-items';
import { putNewArgument, type ArgumentItem } from '#lib/store/arguments/arguments';
import { putNewSignup } from '#lib/store/newsletter/newsletter';
import { batchGet } from '#lib/store/db/batch';
import { mayKeepId, reserveImportIds, type ImportReservation } from '#lib/store/imports/reservations';
import { recordUsersCopied, usersReachedBefore } from '#lib/store/imports/copied';
import { counterKey, type CounterType } from '#lib/store/db/counters';
import { COUNTER_IDS_BELOW } from '#lib/store/db/ids';
import { ideaIndexSpec } from '#lib/discovery/index-spec';
import { nameKeyOf } from '#lib/tags/service';
import { deriveToken, hashToken, newSalt } from '#lib/newsletter/token';
import { importBallot, type ImportedVote } from '#lib/votes/import-ballot';
import { checkpointLateEntry } from '#lib/votes/late-entry';
import type { OpenStadSource, Row, IdTable } from './source.ts';
import {
  authServerOf,
  convertArgument,
  convertContent,
  convertSite,
  convertUser,
  intOf,
  isoOf,
  textOf,
  voteCounts,
  type Converted,
} from './convert.ts';

export type Kind = 'site' | 'user' | 'tag' | 'idea' | 'argument' | 'argumentVote' | 'article' | 'signup' | 'ballot';

export interface KindReport {
  copied: number;
  unchanged: number;
  /** Not copied because an earlier run copied them and they were deleted here since (users only). */
  deletedHere: number;
  notCopied: { id: number | string; reason: string }[];
  notes: { id: number | string; note: string }[];
}

export interface SiteImportReport {
  siteId: number;
  kinds: Record<Kind, KindReport>;
}

interface ImportOptions {
  /**
   * Names the source database (not the way it is reached: scripts/import-openstad.ts sourceKeyOf): the
   * key of its id reservation and of the import's record of what it copied.
   */
  sourceKey: string;
  siteIds?: readonly number[] | undefined;
  dryRun: boolean;
  onSite?: (report: SiteImportReport) => void;
}

const SERVICE: Caller = { kind: 'service', role: 'admin', userId: undefined };

const COUNTERS: Record<IdTable, CounterType> = {
  sites: 'site',
  users: 'user',
  ideas: 'idea',
  articles: 'article',
  arguments: 'argument',
  newslettersignups: 'signup',
  tags: 'tag',
};

const emptyKind = (): KindReport => ({ copied: 0, unchanged: 0, deletedHere: 0, notCopied: [], notes: [] });

export async function importOpenStad(source: OpenStadSource, options: ImportOptions): Promise<SiteImportReport[]> {
  const maxIds = await source.maxIds(COUNTER_IDS_BELOW);
  const ceilings: Partial<Record<CounterType, number>> = {};
  for (const [table, type] of Object.entries(COUNTERS)) ceilings[type] = maxIds[table as IdTable];
  const reservation: ImportReservation = options.dryRun
    ? await previewReservation(options.sourceKey, ceilings)
    : await reserveImportIds(options.sourceKey, ceilings);
  const reports: SiteImportReport[] = [];
  for (const row of await source.sites(options.siteIds)) {
    const report = await importSite(source, row, options.sourceKey, reservation, options.dryRun);
    reports.push(report);
    options.onSite?.(report);
  }
  return reports;
}

/** What a dry run assumes: the stored reservation, else the one a real run would make now. */
async function previewReservation(source: string, ceilings: Partial<Record<CounterType, number>>): Promise<ImportReservation> {
  const [stored] = await getItems([importKeys.importReservation(source)]);
  if (stored) return stored as unknown as ImportReservation;
  const types = Object.keys(ceilings) as CounterType[];
  const counters = await batchGet<Record<string, unknown>>(types.map((t) => counterKey(t)));
  const floors: Partial<Record<CounterType, number>> = {};
  for (const type of types) {
    const value = counters.find((c) => c['SK'] === type)?.['value'];
    floors[type] = typeof value === 'number' ? value : 0;
  }
  return { floors, ceilings, reservedAt: new Date().toISOString() };
}

interface SiteRun {
  siteId: number;
  report: SiteImportReport;
  reservation: ImportReservation;
  dryRun: boolean;
}

/**
 * One record: refused when its id was handed out here before the import; unchanged when it is there
 * already (the same createdAt: what an earlier run wrote); else written by `write` (unless dry).
 * Returns whether the record is on the site afterwards (so what refers to it can follow).
 */
async function place<T extends { id: number; createdAt: string }>(
  run: SiteRun,
  kind: Kind,
  counter: CounterType,
  converted: Converted<T>,
  rowId: unknown,
  existing: ReadonlyMap<number, Record<string, unknown>>,
  write: (value: T) => Promise<true | string>,
): Promise<boolean> {
  const entry = run.report.kinds[kind];
  if (!converted.ok) {
    entry.notCopied.push({ id: intOf(rowId) ?? String(rowId), reason: converted.reason });
    return false;
  }
  const { value } = converted;
  if (!mayKeepId(run.reservation, counter, value.id)) {
    const reason =
      value.id >= COUNTER_IDS_BELOW
        ? `id ${value.id} is 10^9 or more: no import keeps such an id (new ids here start above it)`
        : `id ${value.id} was handed out by this deployment before the import (ids are kept, and unique per type)`;
    entry.notCopied.push({ id: value.id, reason });
    return false;
  }
  const there = existing.get(value.id);
  if (there) {
    if (there['createdAt'] === value.createdAt) {
      entry.unchanged++;
      return true;
    }
    entry.notCopied.push({ id: value.id, reason: `a different ${kind} with id ${value.id} is already stored here` });
    return false;
  }
  for (const note of converted.notes ?? []) entry.notes.push({ id: value.id, note });
  if (run.dryRun) {
    entry.copied++;
    return true;
  }
  const outcome = await write(value);
  if (outcome === true) {
    entry.copied++;
    return true;
  }
  entry.notCopied.push({ id: value.id, reason: outcome });
  return false;
}

/** The stored items among some keys, by the numeric id `idOf` reads from each. */
async function storedById(keyList: Key[], idOf: (item: Record<string, unknown>) => number): Promise<Map<number, Record<string, unknown>>> {
  const items = keyList.length > 0 ? await getItems(keyList, { consistent: true }) : [];
  return new Map(items.map((item) => [idOf(item), item]));
}

const idField = (item: Record<string, unknown>) => Number(item['id']);

async function importSite(source: OpenStadSource, row: Row, sourceKey: string, reservation: ImportReservation, dryRun: boolean): Promise<SiteImportReport> {
  const siteId = intOf(row['id']) ?? 0;
  const kinds = {} as Record<Kind, KindReport>;
  for (const kind of ['site', 'user', 'tag', 'idea', 'argument', 'argumentVote', 'article', 'signup', 'ballot'] as Kind[]) kinds[kind] = emptyKind();
  const run: SiteRun = { siteId, report: { siteId, kinds }, reservation, dryRun };

  const site = convertSite(row);
  // A site deleted here (by id: site ids are never handed out twice) is not recreated, nor anything of it.
  const [gone] = site.ok ? await getItems([siteKeys.siteDeleted(site.value.id)], { consistent: true }) : [];
  if (gone) {
    kinds.site.notCopied.push({ id: siteId, reason: `the site was deleted here (${String(gone['deletedAt'])}): it is not recreated, and nothing of it is copied` });
    return run.report;
  }
  const siteThere = await storedById(site.ok ? [siteKeys.site(site.value.id)] : [], idField);
  const placed = await place(run, 'site', 'site', site, row['id'], siteThere, async (value) => {
    await createSite(SERVICE, { name: value.name, title: value.title ?? undefined, domain: value.domain ?? undefined, config: value.config }, value);
    return true;
  });
  if (!placed || !site.ok) return run.report;
  const authServer = authServerOf(site.value.config);
  if (!authServer) kinds.user.notes.push({ id: siteId, note: 'the site has no oauth.default auth-server-url: users are copied without their auth-server link' });

  // A user an earlier run copied and this site deleted since stays deleted (someone asked to be
  // forgotten); what they wrote comes in as a user's who was not copied: no author, no ballot. A user
  // anonymized here keeps what anonymization keeps (their ideas, articles and arguments, under their
  // id) and gets nothing it removes: no ballot, no newsletter signup (lib/privacy/anonymize.ts).
  const users = new Set<number>();
  const deletedHere = new Set<number>();
  const anonymizedHere = new Set<number>();
  /** The person behind a signup: OpenStad stores the signer's AUTH-SERVER user id in a signup's `externalUserId`. */
  const siteUsersOfAuthId = new Map<number, number[]>();
  /** Lower-cased source e-mail of each user deleted or anonymized here: their signups stay out too. */
  const goneByEmail = new Map<string, number>();
  // Users an earlier run went past and that are not here were deleted here, claim or not (users
  // copied before imports wrote claims, unlinked, leave nothing else): lib/store/imports/copied.ts.
  const reachedBefore = await usersReachedBefore(sourceKey, siteId, reservation);
  await eachBatch((after) => source.siteRows('users', siteId, after), async (rows) => {
    const existing = await storedById(rows.map((r) => userKeys.user(siteId, intOf(r['id']) ?? 0)), idField);
    const converted = rows.map((r) => convertUser(r, siteId, authServer));
    const absent = converted.flatMap((c) => (c.ok && !existing.has(c.value.id) && mayKeepId(reservation, 'user', c.value.id) ? [c.value] : []));
    for (const id of await deletedUsersAmong(siteId, absent)) deletedHere.add(id);
    for (const user of absent) if (reachedBefore(user.id)) deletedHere.add(user.id);
    for (const [i, r] of rows.entries()) {
      const user = converted[i]!;
      const rowId = intOf(r['id']);
      const authId = intOf(r['externalUserId']);
      if (rowId !== null && authId !== null) siteUsersOfAuthId.set(authId, [...(siteUsersOfAuthId.get(authId) ?? []), rowId]);
      const email = textOf(r['email'])?.trim().toLowerCase();
      if (user.ok && deletedHere.has(user.value.id)) {
        kinds.user.deletedHere++;
        if (email) goneByEmail.set(email, user.value.id);
        continue;
      }
      if (user.ok && existing.get(user.value.id)?.['anonymizedAt']) {
        anonymizedHere.add(user.value.id);
        if (email) goneByEmail.set(email, user.value.id);
      }
      const ok = await place(run, 'user', 'user', user, r['id'], existing, async (value) =>
        (await putNewUser(value as UserItem)) ? true : 'another user of this site is linked to the same auth-server user',
      );
      if (ok) users.add(rowId!);
    }
  });
  if (!dryRun) await recordUsersCopied(sourceKey, siteId);
  const goneWhy = (userId: number) => (anonymizedHere.has(userId) ? 'was anonymized here' : 'was deleted here since an earlier run');
  const goneReason = (userId: number) => `its user ${userId} ${goneWhy(userId)}`;
  const notCopiedUser = (userId: number) => (deletedHere.has(userId) ? goneReason(userId) : `its user ${userId} was not copied`);
  /** The site user a signup's auth-server id names: only when exactly one user of this site has it. */
  const signupUser = (authId: number | null): number | undefined => {
    const matches = authId === null ? undefined : siteUsersOfAuthId.get(authId);
    return matches?.length === 1 ? matches[0] : undefined;
  };

  const tags = new Set<number>();
  await eachBatch((after) => source.siteRows('tags', siteId, after), async (rows) => {
    const existing = await storedById(rows.map((r) => tagKeys.tag(siteId, intOf(r['id']) ?? 0)), idField);
    for (const r of rows) {
      const id = intOf(r['id']) ?? 0;
      const name = textOf(r['name']) ?? '';
      const group = textOf(r['type']);
      const createdAt = isoOf(r['createdAt']) ?? new Date().toISOString();
      const converted: Converted<{ id: number; createdAt: string }> =
        name.length >= 1 && name.length <= 64 ? { ok: true, value: { id, createdAt } } : { ok: false, reason: 'a tag name must be 1 to 64 characters' };
      const ok = await place(run, 'tag', 'tag', converted, r['id'], existing, async () => {
        const outcome = await putNewTag({ id, siteId, name, group, nameKey: nameKeyOf(name, group), createdAt, updatedAt: isoOf(r['updatedAt']) ?? createdAt });
        return outcome === 'ok' ? true : outcome === 'duplicate' ? `another tag of the site is called ${name} (type ${group ?? 'none'})` : 'changed meanwhile';
      });
      if (ok) tags.add(id);
    }
  });

  const tagsOfIdea = new Map<number, number[]>();
  for (const link of await source.ideaTagRows(siteId)) {
    const ideaId = intOf(link['ideaId']);
    const tagId = intOf(link['tagId']);
    if (ideaId === null || tagId === null || !tags.has(tagId)) continue;
    tagsOfIdea.set(ideaId, [...(tagsOfIdea.get(ideaId) ?? []), tagId]);
  }

  const ideas = new Set<number>();
  await eachBatch((after) => source.siteRows('ideas', siteId, after), async (rows) => {
    const existing = await storedById(rows.map((r) => contentKeys.idea(siteId, intOf(r['id']) ?? 0)), idField);
    for (const r of rows) {
      const id = intOf(r['id']) ?? 0;
      const ok = await place(run, 'idea', 'idea', convertContent(r, 'idea', siteId, users, tagsOfIdea.get(id)), r['id'], existing, async (value) => {
        const item = value as unknown as ContentItem;
        const outcome = await putNewIdea(item, { index: ideaIndexSpec(item) });
        return outcome === 'ok' ? true : `not stored (${outcome})`;
      });
      if (ok) ideas.add(id);
    }
  });

  // Argument votes live on the argument item: collected first, written with it.
  const voters = new Map<number, Set<number>>();
  await eachBatch((after) => source.argumentVoteRows(siteId, after), async (rows) => {
    for (const r of rows) {
      const argumentId = intOf(r['argumentId']) ?? 0;
      const userId = intOf(r['userId']) ?? 0;
      const reason =
        textOf(r['opinion']) !== 'yes' ? 'an argument vote "no" (OpenStad counted only yes)' : !voteCounts(r) ? 'rejected by a moderator' : !users.has(userId) ? notCopiedUser(userId) : undefined;
      if (reason) kinds.argumentVote.notCopied.push({ id: intOf(r['id']) ?? 0, reason });
      else voters.set(argumentId, (voters.get(argumentId) ?? new Set()).add(userId));
    }
  });

  const argumentIds = new Set<number>();
  await eachBatch((after) => source.argumentRows(siteId, after), async (rows) => {
    const existing = await storedById(
      rows.map((r) => argumentKeys.argument(siteId, intOf(r['ideaId']) ?? 0, intOf(r['id']) ?? 0)),
      idField,
    );
    for (const r of rows) {
      const converted = convertArgument(r, siteId, ideas, argumentIds, users);
      const ok = await place(run, 'argument', 'argument', converted, r['id'], existing, async (value) => {
        const votedBy = voters.get(value.id);
        const item: ArgumentItem = { ...value, ...(votedBy?.size ? { yes: votedBy.size, voterIds: votedBy } : {}) };
        const outcome = await putNewArgument(item);
        return outcome === 'ok' ? true : outcome;
      });
      if (ok) {
        argumentIds.add(converted.ok ? converted.value.id : 0);
        if (existing.has(converted.ok ? converted.value.id : 0)) kinds.argumentVote.unchanged += voters.get(converted.ok ? converted.value.id : 0)?.size ?? 0;
        else kinds.argumentVote.copied += voters.get(converted.ok ? converted.value.id : 0)?.size ?? 0;
      }
    }
  });

  await eachBatch((after) => source.siteRows('articles', siteId, after), async (rows) => {
    const existing = await storedById(rows.map((r) => contentKeys.article(siteId, intOf(r['id']) ?? 0)), idField);
    for (const r of rows) {
      await place(run, 'article', 'article', convertContent(r, 'article', siteId, users), r['id'], existing, async (value) => {
        const outcome = await putNewContentItem('ARTICLE', value as unknown as ContentItem);
        return outcome === 'ok' ? true : `not stored (${outcome})`;
      });
    }
  });

  await eachBatch((after) => source.siteRows('newslettersignups', siteId, after), async (rows) => {
    const existing = await storedById(rows.map((r) => signupKeys.newsletterSignup(siteId, intOf(r['id']) ?? 0)), idField);
    for (const r of rows) {
      const id = intOf(r['id']) ?? 0;
      const email = textOf(r['email'])?.trim() ?? '';
      const createdAt = isoOf(r['createdAt']) ?? new Date().toISOString();
      const confirmed = Number(r['confirmed']) === 1;
      const userId = signupUser(intOf(r['externalUserId']));
      // The signup of a person deleted or anonymized here (by its link, or by their e-mail) is theirs:
      // anonymization deleted it, and a delete forgot them; neither comes back.
      const goneUser = userId !== undefined && (deletedHere.has(userId) || anonymizedHere.has(userId)) ? userId : goneByEmail.get(email.toLowerCase());
      const converted: Converted<{ id: number; createdAt: string }> =
        goneUser !== undefined && !existing.has(id)
          ? { ok: false, reason: `the signup of user ${goneUser}, who ${goneWhy(goneUser)}` }
          : email.includes('@')
            ? { ok: true, value: { id, createdAt }, ...(confirmed ? {} : { notes: ['not yet confirmed: its OpenStad confirm link no longer works; a new token is made'] }) }
            : { ok: false, reason: 'no e-mail address' };
      await place(run, 'signup', 'signup', converted, r['id'], existing, async () => {
        const salt = confirmed ? undefined : newSalt();
        const stored = await putNewSignup({
          id,
          siteId,
          email,
          emailKey: email.toLowerCase(),
          firstName: textOf(r['firstName']),
          lastName: textOf(r['lastName']),
          confirmed,
          createdAt,
          ...(confirmed ? { confirmedAt: isoOf(r['updatedAt']) ?? createdAt } : {}),
          ...(userId !== undefined && users.has(userId) ? { userId } : {}),
          ...(salt ? { tokenSalt: salt, tokenHash: hashToken(deriveToken(siteId, id, salt)) } : {}),
        });
        return stored ? true : `the e-mail ${email} is already signed up on this site`;
      });
    }
  });

  // Votes: one ballot per user, as one round through the vote-writing access pattern.
  let pending: { userId: number; votes: ImportedVote[] } | undefined;
  const flush = async () => {
    if (!pending) return;
    const { userId, votes } = pending;
    pending = undefined;
    if (dryRun) {
      kinds.ballot.copied++;
      return;
    }
    const outcome = await importBallot(siteId, userId, votes);
    if (outcome.kind === 'written') kinds.ballot.copied++;
    else if (outcome.kind === 'unchanged') kinds.ballot.unchanged++;
    else if (outcome.kind === 'differs') kinds.ballot.notCopied.push({ id: userId, reason: 'the user already voted here with other votes; those are kept' });
    else if (outcome.kind === 'user-gone') kinds.ballot.notCopied.push({ id: userId, reason: `its user ${userId} was deleted or anonymized here while the import ran` });
    else kinds.ballot.notCopied.push({ id: userId, reason: `ideas ${outcome.ideaIds.join(', ')} are gone` });
  };
  let cursor = { userId: 0, id: 0 };
  for (;;) {
    const rows = await source.voteRows(siteId, cursor);
    if (rows.length === 0) break;
    for (const r of rows) {
      const userId = intOf(r['userId']) ?? 0;
      const ideaId = intOf(r['ideaId']) ?? 0;
      cursor = { userId, id: intOf(r['id']) ?? 0 };
      const reason = !voteCounts(r)
        ? 'rejected by a moderator'
        : anonymizedHere.has(userId)
          ? goneReason(userId)
          : !users.has(userId)
          ? notCopiedUser(userId)
          : !ideas.has(ideaId)
            ? `its idea ${ideaId} was not copied`
            : undefined;
      if (reason) {
        kinds.ballot.notCopied.push({ id: `vote ${String(r['id'])}`, reason });
        continue;
      }
      if (pending && pending.userId !== userId) await flush();
      pending ??= { userId, votes: [] };
      if (pending.votes.some((v) => v.ideaId === ideaId)) continue;
      pending.votes.push({ ideaId, opinion: textOf(r['opinion']) ?? 'yes', createdAt: isoOf(r['createdAt']) ?? new Date().toISOString() });
    }
  }
  await flush();
  // The site's checkpoint job may have run (and, the project having ended, rested) while it was imported.
  if (!dryRun && kinds.ballot.copied > 0) await checkpointLateEntry(siteId, new Date());
  return run.report;
}

/** Reads a site table batch after batch (keyset on id) and hands each to `work`. */
async function eachBatch(read: (afterId: number) => Promise<Row[]>, work: (rows: Row[]) => Promise<void>): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    if (rows.length === 0) return;
    await work(rows);
    after = intOf(rows.at(-1)!['id']) ?? after;
  }
}

const LABELS: Record<Kind, string> = {
  site: 'site',
  user: 'users',
  tag: 'tags',
  idea: 'ideas',
  argument: 'arguments',
  argumentVote: 'argument votes',
  article: 'articles',
  signup: 'newsletter signups',
  ballot: 'ballots (one per voter)',
};

/** The report as text: per site and kind what was copied, what was there, and what was not copied and why. */
export function formatImportReport(report: SiteImportReport, dryRun: boolean): string {
  const lines = [`site ${report.siteId}${dryRun ? ' (dry run: nothing written)' : ''}`];
  for (const [kind, entry] of Object.entries(report.kinds) as [Kind, KindReport][]) {
    if (entry.copied + entry.unchanged + entry.deletedHere + entry.notCopied.length + entry.notes.length === 0) continue;
    const deleted = entry.deletedHere > 0 ? `, ${entry.deletedHere} deleted here since an earlier run (not recreated)` : '';
    lines.push(`  ${LABELS[kind]}: ${entry.copied} ${dryRun ? 'to copy' : 'copied'}, ${entry.unchanged} already there, ${entry.notCopied.length} not copied${deleted}`);
    for (const { id, reason } of entry.notCopied) lines.push(`    not copied ${id}: ${reason}`);
    for (const { id, note } of entry.notes) lines.push(`    note ${id}: ${note}`);
  }
  return lines.join('\n');
}
