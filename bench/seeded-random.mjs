/** A deterministic random number generator (mulberry32): the same seed, the same addresses. */
export function seededRandom(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct public IPv4 addresses drawn from `seed`: the same seed, the same list. */
export async function publicAddresses(seed, count = 10_000) {
  const { isPublicIp } = await import('../src/lib/ip-address.ts');
  const random = seededRandom(seed);
  const addresses = new Set();
  while (addresses.size < count) {
    const ip = [0, 0, 0, 0].map(() => Math.floor(random() * 256)).join('.');
    if (isPublicIp(ip)) addresses.add(ip);
  }
  return [...addresses];
}
