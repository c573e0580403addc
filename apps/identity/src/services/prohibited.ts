import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.ts';

/**
 * PROHIBITED_NETWORKS: whether a client address's sign-in is refused as a prohibited location.
 * Built once per plugin from the configuration; BlockList also matches an IPv4-mapped IPv6 address
 * (::ffff:203.0.113.5) against IPv4 ranges.
 */
export function prohibitedAddresses(config: Pick<Config, 'prohibitedNetworks'>): (ip: string) => boolean {
  const networks = new BlockList();
  for (const n of config.prohibitedNetworks) networks.addSubnet(n.address, n.prefix, n.family);
  return (ip) => {
    const family = isIP(ip);
    return family !== 0 && networks.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
}
