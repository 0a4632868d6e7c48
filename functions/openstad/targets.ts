/**
 * The main API's handlers, by module (the `handler` of each route declaration): the OpenStad surface
 * calls them with the request translated (lib/openstad/dispatch.ts), so every rule of the main API
 * (tenancy, roles, Basic Auth, rate limits, CORS, body limits) applies to it unchanged.
 * tests/unit/openstad/targets.test.ts holds this table to the route declarations.
 */
import type { TargetHandler } from '#lib/openstad/dispatch';
import { handler as sitesList } from '../sites/list.ts';
import { handler as sitesCreate } from '../sites/create.ts';
import { handler as sitesGet } from '../sites/get.ts';
import { handler as sitesUpdate } from '../sites/update.ts';
import { handler as sitesPatch } from '../sites/patch.ts';
import { handler as sitesDelete } from '../sites/delete.ts';
import { handler as ideasList } from '../ideas/list.ts';
import { handler as ideasCreate } from '../ideas/create.ts';
import { handler as ideasGet } from '../ideas/get.ts';
import { handler as ideasUpdate } from '../ideas/update.ts';
import { handler as ideasDelete } from '../ideas/delete.ts';
import { handler as ideasMarkers } from '../ideas/markers.ts';
import { handler as tagsList } from '../tags/list.ts';
import { handler as tagsCreate } from '../tags/create.ts';
import { handler as tagsUpdate } from '../tags/update.ts';
import { handler as tagsDelete } from '../tags/delete.ts';
import { handler as articlesList } from '../articles/list.ts';
import { handler as articlesCreate } from '../articles/create.ts';
import { handler as articlesGet } from '../articles/get.ts';
import { handler as articlesUpdate } from '../articles/update.ts';
import { handler as articlesDelete } from '../articles/delete.ts';
import { handler as argumentsListSite } from '../arguments/list-site.ts';
import { handler as argumentsList } from '../arguments/list.ts';
import { handler as argumentsCreate } from '../arguments/create.ts';
import { handler as argumentsGet } from '../arguments/get.ts';
import { handler as argumentsUpdate } from '../arguments/update.ts';
import { handler as argumentsDelete } from '../arguments/delete.ts';
import { handler as argumentsVote } from '../arguments/vote.ts';
import { handler as votesList } from '../votes/list.ts';
import { handler as votesCast } from '../votes/cast.ts';
import { handler as votesReview } from '../votes/review.ts';
import { handler as usersList } from '../users/list.ts';
import { handler as usersCreate } from '../users/create.ts';
import { handler as usersGet } from '../users/get.ts';
import { handler as usersUpdate } from '../users/update.ts';
import { handler as usersDelete } from '../users/delete.ts';
import { handler as usersActivity } from '../users/activity.ts';
import { handler as usersWillAnonymize } from '../users/will-anonymize.ts';
import { handler as usersWillAnonymizeAll } from '../users/will-anonymize-all.ts';
import { handler as usersDoAnonymize } from '../users/do-anonymize.ts';
import { handler as usersDoAnonymizeAll } from '../users/do-anonymize-all.ts';
import { handler as usersExport } from '../users/export.ts';
import { handler as newsletterList } from '../newsletter/list.ts';
import { handler as newsletterCreate } from '../newsletter/create.ts';
import { handler as newsletterConfirm } from '../newsletter/confirm.ts';
import { handler as notificationsList } from '../notifications/list.ts';
import { handler as notificationsSent } from '../notifications/sent.ts';
import { handler as resultsGet } from '../results/get.ts';
import { handler as resultsExportVotes } from '../results/export-votes.ts';
import { handler as resultsExportIdeas } from '../results/export-ideas.ts';
import { handler as resultsCheckpoints } from '../results/checkpoints.ts';
import { handler as resultsCompute } from '../results/compute.ts';
import { handler as voteReceipt } from '../results/vote-receipt.ts';
import { handler as voteRecordCheckpoint } from '../results/vote-record-checkpoint.ts';
import { handler as voteRecordConsistency } from '../results/vote-record-consistency.ts';
import { handler as oauthLogin } from '../oauth/login.ts';
import { handler as oauthDigestLogin } from '../oauth/digest-login.ts';
import { handler as oauthMe } from '../oauth/me.ts';
import { handler as oauthLogout } from '../oauth/logout.ts';

import { handler as notFound } from '../system/not-found.ts';

export const TARGETS: Record<string, TargetHandler> = {
  'functions/sites/list': sitesList,
  'functions/sites/create': sitesCreate,
  'functions/sites/get': sitesGet,
  'functions/sites/update': sitesUpdate,
  'functions/sites/patch': sitesPatch,
  'functions/sites/delete': sitesDelete,
  'functions/ideas/list': ideasList,
  'functions/ideas/create': ideasCreate,
  'functions/ideas/get': ideasGet,
  'functions/ideas/update': ideasUpdate,
  'functions/ideas/delete': ideasDelete,
  'functions/ideas/markers': ideasMarkers,
  'functions/tags/list': tagsList,
  'functions/tags/create': tagsCreate,
  'functions/tags/update': tagsUpdate,
  'functions/tags/delete': tagsDelete,
  'functions/articles/list': articlesList,
  'functions/articles/create': articlesCreate,
  'functions/articles/get': articlesGet,
  'functions/articles/update': articlesUpdate,
  'functions/articles/delete': articlesDelete,
  'functions/arguments/list-site': argumentsListSite,
  'functions/arguments/list': argumentsList,
  'functions/arguments/create': argumentsCreate,
  'functions/arguments/get': argumentsGet,
  'functions/arguments/update': argumentsUpdate,
  'functions/arguments/delete': argumentsDelete,
  'functions/arguments/vote': argumentsVote,
  'functions/votes/list': votesList,
  'functions/votes/cast': votesCast,
  'functions/votes/review': votesReview,
  'functions/users/list': usersList,
  'functions/users/create': usersCreate,
  'functions/users/get': usersGet,
  'functions/users/update': usersUpdate,
  'functions/users/delete': usersDelete,
  'functions/users/activity': usersActivity,
  'functions/users/will-anonymize': usersWillAnonymize,
  'functions/users/will-anonymize-all': usersWillAnonymizeAll,
  'functions/users/do-anonymize': usersDoAnonymize,
  'functions/users/do-anonymize-all': usersDoAnonymizeAll,
  'functions/users/export': usersExport,
  'functions/newsletter/list': newsletterList,
  'functions/newsletter/create': newsletterCreate,
  'functions/newsletter/confirm': newsletterConfirm,
  'functions/notifications/list': notificationsList,
  'functions/notifications/sent': notificationsSent,
  'functions/results/get': resultsGet,
  'functions/results/export-votes': resultsExportVotes,
  'functions/results/export-ideas': resultsExportIdeas,
  'functions/results/checkpoints': resultsCheckpoints,
  'functions/results/compute': resultsCompute,
  'functions/results/vote-receipt': voteReceipt,
  'functions/results/vote-record-checkpoint': voteRecordCheckpoint,
  'functions/results/vote-record-consistency': voteRecordConsistency,
  'functions/oauth/login': oauthLogin,
  'functions/oauth/digest-login': oauthDigestLogin,
  'functions/oauth/me': oauthMe,
  'functions/oauth/logout': oauthLogout,
  'functions/system/not-found': notFound,
};
