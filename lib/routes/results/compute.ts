import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

export const resultsCompute = {
  operationId: 'resultsCompute',
  method: 'POST',
  path: '/api/site/{siteId}/results/compute',
  handler: 'functions/results/compute',
  params: siteParams,
  tag: 'Results',
  summary: 'Compute the results now',
  description: 'Makes the background computation of the results due now (at most one runs per site at a time); `GET .../results` shows the new snapshot once it is written (`Location`).',
  access: 'moderators and above',
  dataAccess: 'write',
  auth: 'required',
  success: { status: 202 },
  errors: [403],
} satisfies Route;
