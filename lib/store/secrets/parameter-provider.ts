/**
 * The stage's secret parameters (SSM Parameter Store), fetched as one: a Powertools Parameters provider (its cache, max
 * age, errors and user agent) over one SSM GetParameters call for every declared name. Powertools'
 * own SSMProvider would do the same, but it imports five more SSM commands and their paginator:
 * 90 KB more in every bundle that reads secrets (docs/benchmarks.md), for calls we never make.
 */
import { BaseProvider } from '@aws-lambda-powertools/parameters/base';
import { GetParametersCommand, SSMClient } from '@aws-sdk/client-ssm';

export class SecretParameters extends BaseProvider {
  declare protected client: SSMClient;

  /**
   * When (ms epoch) the last fetch that answered was sent: what it read is at least that new, so its
   * age is counted from there (the cache's own entry counts from the answer, a little later).
   */
  fetchedAt: number | undefined;

  constructor(private readonly names: readonly string[]) {
    super({ awsSdkV3ClientPrototype: SSMClient as never });
  }

  /** Every name's decrypted value, as JSON text keyed by name (`name` is the stage's path, the cache key). */
  protected async _get(): Promise<string> {
    const sent = Date.now();
    const out = await this.client.send(new GetParametersCommand({ Names: [...this.names], WithDecryption: true }));
    if (out.InvalidParameters?.length) throw new Error(`missing secret parameters: ${out.InvalidParameters.join(', ')} (npm run secrets -- init)`);
    this.fetchedAt = sent;
    return JSON.stringify(Object.fromEntries((out.Parameters ?? []).map((p) => [p.Name, p.Value ?? ''])));
  }

  protected _getMultiple(): Promise<undefined> {
    throw new Error('SecretParameters reads a fixed list of names: use get()');
  }
}
