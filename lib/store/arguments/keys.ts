/** Keys of arguments: under their idea (`ARG#<idea>#<argument>`), so one Query lists an idea's arguments. */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const argumentKeys = {
  /** Arguments sort under their idea, so one Query lists an idea's arguments. */
  argument: (siteId: number, ideaId: number, argumentId: number): Key => ({
    PK: sitePk(siteId),
    SK: `ARG#${pad(ideaId)}#${pad(argumentId)}`,
  }),
  argumentPrefix: 'ARG#',
  argumentsOfIdeaPrefix: (ideaId: number) => `ARG#${pad(ideaId)}#`,
} as const;
