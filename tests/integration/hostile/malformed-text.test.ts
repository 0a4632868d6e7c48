/**
 * Lone surrogates over every route (tests/support/hostile/suite.ts malformedTextSuite): in a query
 * name or value, a body value at any depth or a body key, each is a 400 naming its path, never a 5xx,
 * and nothing is stored.
 */
import { malformedTextSuite } from '#tests/support/hostile/suite';

malformedTextSuite();
