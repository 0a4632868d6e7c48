/**
 * Consumed login states (lib/oauth/state.ts): `digest-login` writes one item per state it accepts, with
 * a condition that none exists yet, so a state works once, even when two callbacks race. The item
 * lives under the site (a site delete sweeps it) until the state itself has expired (TTL).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { conditionFailed } from '#lib/store/db/failures';
import { usedLoginStateCodec } from '#lib/store/login/codec';


/** @returns false when the state was used before. */
export async function markLoginStateUsed(siteId: number, nonceHash: string, expiresAtEpoch: number): Promise<boolean> {
  try {
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: usedLoginStateCodec.toItem({ ttl: expiresAtEpoch }, siteId, nonceHash),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
