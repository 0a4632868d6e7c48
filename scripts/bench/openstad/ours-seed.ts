/**
 * Our side of the world, written the way the in-process bench writes it (scripts/bench/world.ts:
 * lib/store's key builders and item shapes in bulk, the seed votes through the real vote handler) into
 * the DynamoDB Local of the running `npm start`. Import it only after `useOurStack` (stack-env.ts).
 */
import { ARGUMENTS_PER_IDEA, DETAIL_ARGUMENTS, LISTER_OFFSET, SEED_ROUND, SMALL_IDEAS, type World } from './world.ts';

export async function seedOurs(largeIdeas: number): Promise<World> {
  const { castRound, ideaSite, spread } = await import('../world.ts');
  const { seedArguments, seedUsers } = await import('../seed.ts');
  const bearer = (token: string) => `Bearer ${token}`;
  /** A member with a ballot of SEED_ROUND votes, as OpenStad's side has one. */
  const lister = async (site: { siteId: number; ideaIds: number[] }) => {
    const [member] = await seedUsers(site.siteId, 1, 'member');
    await castRound(site.siteId, member!, spread(site.ideaIds, SEED_ROUND, LISTER_OFFSET));
    return bearer(member!.token);
  };

  const small = await ideaSite(SMALL_IDEAS, ARGUMENTS_PER_IDEA);
  const detailIdeaId = small.ideaIds[1]!;
  await seedArguments(small.siteId, [detailIdeaId], DETAIL_ARGUMENTS - ARGUMENTS_PER_IDEA, small.authors.map((a) => a.id));
  const [singleVoter, arguer] = await seedUsers(small.siteId, 2, 'member');
  const large = await ideaSite(largeIdeas, ARGUMENTS_PER_IDEA);
  return {
    small: {
      siteId: small.siteId,
      ideaIds: small.ideaIds,
      lister: await lister(small),
      detailIdeaId,
      roundVoter: bearer(small.member.token),
      singleVoter: bearer(singleVoter!.token),
      arguer: bearer(arguer!.token),
    },
    large: { siteId: large.siteId, ideaIds: large.ideaIds, lister: await lister(large) },
  };
}
