/**
 * zod/mini carries no messages of its own: without a locale every default message is "Invalid input".
 * The English locale gives the messages zod classic gave, which clients read in error `details`
 * (CONTRACT). Imported first by every module that builds or parses schemas, so no parse runs without it.
 *
 * zod classic also installs a memoizer that lets a parse walk an input with reference cycles; mini
 * leaves it out, and so do we (3 KB per bundle): what we parse comes from JSON.parse or a DynamoDB
 * item, and neither can hold a cycle.
 */
import * as z from 'zod/mini';
// By its own path: `z.locales.en` would bundle every locale (~250 KB).
import en from 'zod/v4/locales/en.js';

z.config(en());
