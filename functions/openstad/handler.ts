/**
 * The OpenStad v1 surface: every path under `/openstad` (one function for the whole prefix), served by
 * the main API's own handlers through the adapter of lib/openstad (docs/openstad.md).
 */
import { openstadHandler } from '#lib/openstad/dispatch';
import { TARGETS } from './targets.ts';

export const handler = openstadHandler(TARGETS);
