/**
 * Which hosts an auth server may live on (CONTRACT "Decided details, security"): a site admin writes
 * `auth-server-url`, and the API then makes requests to it, so without these rules a site admin could
 * make the API probe its own network (cloud metadata, internal services) and read the answer off the
 * 502s.
 *
 *   always refused             link-local (169.254/16, fe80::/10) and cloud-metadata addresses and names
 *   refused outside local      loopback, private, carrier-grade NAT, unspecified, multicast, reserved
 *   outside the local stage    `https` only
 *
 * Address ranges are matched with node:net's BlockList (it also matches IPv4-mapped IPv6 such as
 * `::ffff:127.0.0.1` against the IPv4 ranges); host names are first read through the WHATWG URL
 * parser, which turns `2130706433`, `0x7f.1` and `017700000001` into `127.0.0.1`. Pure: the stage
 * is a parameter, so the unit tests try both.
 */
import { BlockList, isIP } from 'node:net';

const v4 = (list: BlockList, ...cidrs: string[]) => {
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split('/') as [string, string];
    list.addSubnet(net, Number(bits), 'ipv4');
  }
};
const v6 = (list: BlockList, ...cidrs: string[]) => {
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split('/') as [string, string];
    list.addSubnet(net, Number(bits), 'ipv6');
  }
};

/** Never an auth server, on any stage: link-local and the metadata services of the clouds. */
const ALWAYS_REFUSED = new BlockList();
v4(ALWAYS_REFUSED, '169.254.0.0/16', '100.100.100.200/32');
v6(ALWAYS_REFUSED, 'fe80::/10', 'fd00:ec2::254/128', '64:ff9b::a9fe:0/112');

/** Fine on a developer's machine, never in a deployment: the API's own network and non-unicast space. */
const REFUSED_OUTSIDE_LOCAL = new BlockList();
v4(
  REFUSED_OUTSIDE_LOCAL,
  '0.0.0.0/8', // unspecified, "this network"
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
);
v6(
  REFUSED_OUTSIDE_LOCAL,
  '::/128', // unspecified
  '::1/128',
  '::/96', // IPv4-compatible (deprecated)
  '64:ff9b::/96', // NAT64 of any IPv4 address
  '64:ff9b:1::/48',
  '100::/64', // discard
  'fc00::/7', // unique local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
);

/** Names of metadata services that resolve only inside a cloud, refused before any lookup. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** A resolved or literal address: undefined when it may be called on this stage, else why not. */
export function addressProblem(address: string, isLocalStage: boolean): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'is not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (ALWAYS_REFUSED.check(address, type)) return 'is a link-local or cloud-metadata address';
  if (!isLocalStage && REFUSED_OUTSIDE_LOCAL.check(address, type)) return 'is a loopback, private or reserved address';
  return undefined;
}

/** `[::1]` -> `::1`: URL keeps the brackets of an IPv6 host. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.$/, '');

/** A URL's host name as the URL parser read it: undefined when allowed (DNS is checked at call time). */
export function hostProblem(hostname: string, isLocalStage: boolean): string | undefined {
  const host = bareHost(hostname);
  if (isIP(host)) return addressProblem(host, isLocalStage);
  if (METADATA_NAMES.has(host)) return 'is a cloud-metadata address';
  if (!isLocalStage && isLocalhostName(host)) return 'is a loopback address';
  return undefined;
}

/**
 * The rule for a configured `auth-server-url`, as a message for the config path; undefined when it
 * may be saved.
 */
export function authServerUrlProblem(raw: string, isLocalStage: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  const problem = hostProblem(url.hostname, isLocalStage);
  if (problem) return `must not point to an internal address: its host ${problem}`;
  if (url.protocol !== 'https:' && !isLocalStage) return 'must be an https URL';
  return undefined;
}
