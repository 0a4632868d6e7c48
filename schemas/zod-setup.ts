/**
 * zod/mini carries no messages of its own: without a locale every default message is "Invalid input".
 * The English locale gives the messages zod classic gave, which clients read in error `details`
 * (CONTRACT). Imported first by every module that builds or parses schemas, so no parse runs without it.
 */
import * as z from 'zod/mini';
// By its own path: `z.locales.en` would bundle every locale (~250 KB).
import en from 'zod/v4/locales/en.js';

z.config(en());
